/**
 * An answer the database already wrote as JSON text (a page built with `json_build_object`): the
 * HTTP layer sends the text as it is instead of parsing it and stringifying it again, which for a
 * page of 50 wide rows cost more than the query. `T` is what the text holds once parsed; with
 * response validation on (tests) it is parsed and checked against the route's schema like any answer.
 */
export class JsonText<T> {
  declare readonly parsed: T;
  constructor(readonly text: string) {}
}

/** `value` as JSON text, with `field` set to JSON text already written (spliced in as it is, not parsed). */
export function withJsonField<T>(value: object, field: string, text: string): JsonText<T> {
  const head = JSON.stringify(value);
  return new JsonText<T>(`${head.slice(0, -1)}${head === '{}' ? '' : ','}${JSON.stringify(field)}:${text}}`);
}
