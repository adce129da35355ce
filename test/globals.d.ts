// Tests read JSON answers loosely: response.json() is any here (the assertions check the values).
export {};
declare global {
  interface Body {
    json(): Promise<any>;
  }
  interface Response {
    json(): Promise<any>;
  }
}
