// Questions asking what an administrative rule fixes (rule-questions.ts, issue #15). Pure functions: no corpus needed.
import t from 'tap';
import { asksForStandard, standardPrior } from '../../src/law/search/rule-questions.js';

t.test('a question for a standard, an amount, a rate, a limit or points asks for a rule\'s figures', async (t) => {
  t.equal(asksForStandard('운전면허 점수를 몇 점 받나요'), true);
  t.equal(asksForStandard('신용카드가맹점 우대수수료율'), true);
  t.equal(asksForStandard('정해 둔 보상 기준이 있나요'), true);
  t.equal(asksForStandard('면세 한도는'), true);
  t.equal(asksForStandard('얼마까지 세금 없이 들여올 수 있나요'), true);
});

t.test('how long / how often (얼마나) and hours are no such question', async (t) => {
  t.equal(asksForStandard('야간근로수당은 얼마나 더 받나요'), false);
  t.equal(asksForStandard('일주일에 연장근로는 최대 몇 시간까지 할 수 있나요'), false);
  t.equal(asksForStandard('주택 임차인 대항력'), false);
});

t.test('the prior moves from the rule\'s own toward the statutes\' by the share w, never down', async (t) => {
  t.equal(standardPrior(0.8, 3.2, 0), 0.8);
  t.equal(standardPrior(0.8, 3.2, 1), 3.2);
  t.ok(Math.abs(standardPrior(0.8, 3.2, 0.5) - 1.6) < 1e-12);
  t.equal(standardPrior(2, 1, 1), 2);
});
