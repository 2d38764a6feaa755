/**
 * Builders for DynamoDB expressions: they keep the `#name` / `:value`
 * placeholder bookkeeping in one place, so that the store modules write
 * what an update or a condition means rather than how it is spelled.
 *
 *   const u = new Update().set('name', name).add('version', 1);
 *   u.when(`attribute_exists(pk) AND ${u.name('version')} = ${u.value(3)}`);
 */

/** Placeholders for attribute names and values, made as they are asked for. */
export class Expression {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly conditions: string[] = [];
  private valueCount = 0;

  /** The placeholder of an attribute name (`#name`); the same attribute gets the same one. */
  name(attribute: string): string {
    const placeholder = `#${attribute.replace(/\W/g, '_')}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  /** A fresh placeholder bound to `value` (`:v0`, `:v1`, ...). */
  value(value: unknown): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** Adds a condition; all conditions must hold (AND). */
  when(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  /** `attribute = value`. */
  whenEquals(attribute: string, value: unknown): this {
    return this.when(`${this.name(attribute)} = ${this.value(value)}`);
  }

  whenExists(attribute = 'pk'): this {
    return this.when(`attribute_exists(${this.name(attribute)})`);
  }

  whenAbsent(attribute = 'pk'): this {
    return this.when(`attribute_not_exists(${this.name(attribute)})`);
  }

  get condition(): string | undefined {
    return this.conditions.length > 0 ? this.conditions.map((c) => (this.conditions.length > 1 ? `(${c})` : c)).join(' AND ') : undefined;
  }

  /** The `ConditionExpression` (if any) and placeholder maps of a command (absent members left out). */
  expressionInput(): {
    ConditionExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  } {
    return {
      ...(this.condition ? { ConditionExpression: this.condition } : {}),
      ...(Object.keys(this.names).length > 0 ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

/** A condition alone (Put, Delete, ConditionCheck). */
export class Condition extends Expression {}

/** An UpdateItem: SET, ADD and REMOVE clauses, and its condition. */
export class Update extends Expression {
  private readonly sets: string[] = [];
  private readonly adds: string[] = [];
  private readonly removes: string[] = [];

  set(attribute: string, value: unknown): this {
    this.sets.push(`${this.name(attribute)} = ${this.value(value)}`);
    return this;
  }

  /** Sets an attribute unless the item already has it (`if_not_exists`): the first value written stays. */
  setIfAbsent(attribute: string, value: unknown): this {
    const name = this.name(attribute);
    this.sets.push(`${name} = if_not_exists(${name}, ${this.value(value)})`);
    return this;
  }

  /** Sets a document path written with placeholders, e.g. `${u.name('email')}.${u.name('status')}`. */
  setPath(path: string, value: unknown): this {
    this.sets.push(`${path} = ${this.value(value)}`);
    return this;
  }

  /** Sets every attribute of `fields`. */
  setAll(fields: Record<string, unknown>): this {
    for (const [attribute, value] of Object.entries(fields)) this.set(attribute, value);
    return this;
  }

  /** Adds a number to an attribute (absent counts as 0). */
  add(attribute: string, delta: number): this {
    this.adds.push(`${this.name(attribute)} ${this.value(delta)}`);
    return this;
  }

  /** Appends to a list attribute (absent counts as empty). */
  append(attribute: string, values: unknown[]): this {
    const name = this.name(attribute);
    this.sets.push(`${name} = list_append(if_not_exists(${name}, ${this.value([])}), ${this.value(values)})`);
    return this;
  }

  remove(...attributes: string[]): this {
    this.removes.push(...attributes.map((attribute) => this.name(attribute)));
    return this;
  }

  get isEmpty(): boolean {
    return this.sets.length + this.adds.length + this.removes.length === 0;
  }

  get updateExpression(): string {
    const clauses: string[] = [];
    if (this.sets.length > 0) clauses.push(`SET ${this.sets.join(', ')}`);
    if (this.adds.length > 0) clauses.push(`ADD ${this.adds.join(', ')}`);
    if (this.removes.length > 0) clauses.push(`REMOVE ${this.removes.join(', ')}`);
    if (clauses.length === 0) throw new Error('an update needs at least one SET, ADD or REMOVE');
    return clauses.join(' ');
  }
}
