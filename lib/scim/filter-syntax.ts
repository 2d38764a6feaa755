/**
 * The one step that reads a SCIM filter's text (RFC 7644 §3.4.2.2) into a
 * syntax tree: everything after it (filter.ts resolves names and evaluates,
 * filter-reads.ts chooses the reads) works on `FilterSyntax` alone.
 *
 * A hand-written tokenizer and recursive-descent parser, in time linear in
 * the text: each character is looked at a bounded number of times and no
 * regular expression can backtrack (a filter is caller input, and the
 * library read before this one took seconds on a quote followed by thirty
 * newlines). The grammar, loosest binding first:
 *
 *     filter  = and *("or" and)
 *     and     = unary *("and" unary)
 *     unary   = "not" unary / "(" filter ")" / attrExp
 *     attrExp = attrPath "pr"
 *             / attrPath compareOp value
 *             / attrPath "[" filter "]" ["." subAttr ("pr" / compareOp value)]
 *     value   = JSON string / number / true / false / null
 *
 * Keywords and operators are case-insensitive; an attribute path is an
 * optional schema URN (`urn:…:2.0:User:`), a name, an optional `.sub`.
 * The tree keeps `and`/`or` operands in order (`a and b and c` one node of
 * three) and attribute paths as written; Entra's
 * `emails[type eq "work"].value eq "x"` reads as
 * `emails[type eq "work"] and emails.value eq "x"` (filter.ts makes it the
 * value path it means).
 */

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le';
/** A compared value as the filter writes it: `"x"`, `true`, `3`, `null`. */
export type CompareValue = boolean | null | number | string;

export type FilterSyntax =
  | { op: 'and' | 'or'; filters: FilterSyntax[] }
  | { op: 'not'; filter: FilterSyntax }
  /** `emails[type eq "work"]`: the inner filter holds for one element. */
  | { op: '[]'; attrPath: string; valFilter: FilterSyntax }
  | { op: 'pr'; attrPath: string }
  | { op: CompareOp; attrPath: string; compValue: CompareValue };

/** How deep parentheses, `not`s and value paths may nest: far beyond any real filter, well within the stack. */
const MAX_DEPTH = 32;

const COMPARE_OPS: ReadonlySet<string> = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le']);

type Token =
  | { kind: '(' | ')' | '[' | ']' | 'end'; at: number; end: number }
  | { kind: 'string'; value: string; at: number; end: number }
  /** Anything else between spaces, brackets and quotes: a keyword, a name, a number, true/false/null. */
  | { kind: 'word'; text: string; at: number; end: number };

const isWordChar = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || // a-z
  (code >= 0x41 && code <= 0x5a) || // A-Z
  (code >= 0x30 && code <= 0x39) || // 0-9
  code === 0x2d || // -
  code === 0x5f || // _
  code === 0x2e || // .
  code === 0x3a || // :
  code === 0x2b || // + (in numbers: 1e+3)
  code === 0x24; // $ (RFC 7643's $ref)

const HEX = /^[0-9A-Fa-f]{4}$/;
const ESCAPED: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A JSON string starting at `start` (its opening quote); returns its value and the index after its closing quote. */
function readString(text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  let run = i; // the start of the characters copied as they are
  while (i < text.length) {
    const char = text[i];
    if (char === '"') return { value: value + text.slice(run, i), end: i + 1 };
    if (char < ' ') throw new Error(`a control character in the string at ${i}`);
    if (char !== '\\') {
      i++;
      continue;
    }
    value += text.slice(run, i);
    const escape = text[i + 1];
    if (escape === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!HEX.test(hex)) throw new Error(`a bad \\u escape at ${i}`);
      value += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else if (escape !== undefined && escape in ESCAPED) {
      value += ESCAPED[escape];
      i += 2;
    } else {
      throw new Error(`a bad escape at ${i}`);
    }
    run = i;
  }
  throw new Error(`a string opened at ${start} is not closed`);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === ' ') {
      i++;
    } else if (char === '(' || char === ')' || char === '[' || char === ']') {
      tokens.push({ kind: char, at: i, end: i + 1 });
      i++;
    } else if (char === '"') {
      const { value, end } = readString(text, i);
      tokens.push({ kind: 'string', value, at: i, end });
      i = end;
    } else if (isWordChar(text.charCodeAt(i))) {
      const start = i;
      while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i), at: start, end: i });
    } else {
      throw new Error(`unexpected character ${JSON.stringify(char)} at ${i}`);
    }
  }
  tokens.push({ kind: 'end', at: text.length, end: text.length });
  return tokens;
}

const isLetter = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);

/** RFC 7644's ATTRNAME: a letter, then letters, digits, `-`, `_` (and `$ref`). */
function isAttributeName(name: string): boolean {
  if (name === '$ref') return true;
  if (name === '' || !isLetter(name.charCodeAt(0))) return false;
  for (let i = 1; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (!isLetter(code) && !(code >= 0x30 && code <= 0x39) && code !== 0x2d && code !== 0x5f) return false;
  }
  return true;
}

/** An attribute path: `[urn:…:]name[.sub]`. */
function isAttributePath(path: string): boolean {
  const colon = path.lastIndexOf(':');
  if (colon >= 0) {
    const urn = path.slice(0, colon);
    if (!urn.toLowerCase().startsWith('urn:') || urn.split(':').some((part) => part === '')) return false;
  }
  const names = path.slice(colon + 1).split('.');
  return names.length <= 2 && names.every(isAttributeName);
}

/** JSON's number, checked by hand: -?(0|[1-9]digits)(.digits)?([eE][+-]?digits)? */
function isNumber(text: string): boolean {
  let i = text[0] === '-' ? 1 : 0;
  const digits = () => {
    const from = i;
    while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i - from;
  };
  const first = i;
  const whole = digits();
  if (whole === 0 || (whole > 1 && text[first] === '0')) return false;
  if (text[i] === '.') {
    i++;
    if (digits() === 0) return false;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    if (digits() === 0) return false;
  }
  return i === text.length;
}

class Parser {
  private next = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.next];
  }

  private take(): Token {
    const token = this.tokens[this.next];
    if (token.kind !== 'end') this.next++;
    return token;
  }

  private keyword(): string | undefined {
    const token = this.peek();
    return token.kind === 'word' ? token.text.toLowerCase() : undefined;
  }

  private expect(kind: ')' | ']'): Token {
    const token = this.take();
    if (token.kind !== kind) throw new Error(`expected "${kind}" at ${token.at}`);
    return token;
  }

  private nested<T>(read: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new Error(`nested more than ${MAX_DEPTH} deep`);
    const result = read();
    this.depth--;
    return result;
  }

  whole(): FilterSyntax {
    const filter = this.or();
    const token = this.peek();
    if (token.kind !== 'end') throw new Error(`unexpected ${describe(token)} at ${token.at}`);
    return filter;
  }

  private or(): FilterSyntax {
    const filters = [this.and()];
    while (this.keyword() === 'or') {
      this.take();
      filters.push(this.and());
    }
    return filters.length === 1 ? filters[0] : { op: 'or', filters };
  }

  private and(): FilterSyntax {
    const filters = [this.unary()];
    while (this.keyword() === 'and') {
      this.take();
      filters.push(this.unary());
    }
    return filters.length === 1 ? filters[0] : { op: 'and', filters };
  }

  private unary(): FilterSyntax {
    const token = this.peek();
    if (this.keyword() === 'not') {
      this.take();
      return this.nested(() => ({ op: 'not', filter: this.unary() }));
    }
    if (token.kind === '(') {
      this.take();
      const filter = this.nested(() => this.or());
      this.expect(')');
      return filter;
    }
    return this.attributeExpression();
  }

  private attributePath(): string {
    const token = this.take();
    if (token.kind !== 'word' || !isAttributePath(token.text)) throw new Error(`expected an attribute name at ${token.at}`);
    return token.text;
  }

  /** `pr` or an operator and its value, after an attribute path. */
  private test(attrPath: string): FilterSyntax {
    const token = this.take();
    const op = token.kind === 'word' ? token.text.toLowerCase() : '';
    if (op === 'pr') return { op: 'pr', attrPath };
    if (!COMPARE_OPS.has(op)) throw new Error(`expected an operator after "${attrPath}" at ${token.at}`);
    return { op: op as CompareOp, attrPath, compValue: this.value() };
  }

  private value(): CompareValue {
    const token = this.take();
    if (token.kind === 'string') return token.value;
    if (token.kind === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
      if (isNumber(token.text)) return Number(token.text);
    }
    throw new Error(`expected a value (a quoted string, a number, true, false or null) at ${token.at}`);
  }

  private attributeExpression(): FilterSyntax {
    const attrPath = this.attributePath();
    if (this.peek().kind !== '[') return this.test(attrPath);
    this.take();
    const valFilter = this.nested(() => this.or());
    const close = this.expect(']');
    const valuePath: FilterSyntax = { op: '[]', attrPath, valFilter };
    const after = this.peek();
    // Entra's `emails[type eq "work"].value eq "x"`: a sub-attribute right after the bracket.
    if (after.kind !== 'word' || after.at !== close.end || !after.text.startsWith('.')) return valuePath;
    this.take();
    const sub = after.text.slice(1);
    if (!isAttributeName(sub)) throw new Error(`expected a sub-attribute name at ${after.at + 1}`);
    return { op: 'and', filters: [valuePath, this.test(`${attrPath}.${sub}`)] };
  }
}

function describe(token: Token): string {
  if (token.kind === 'word') return JSON.stringify(token.text.slice(0, 40));
  if (token.kind === 'string') return 'string';
  return `"${token.kind}"`;
}

/** The syntax tree of a filter; throws an Error whose message says what is wrong with the text. */
export function parseSyntax(text: string): FilterSyntax {
  return new Parser(tokenize(text)).whole();
}
