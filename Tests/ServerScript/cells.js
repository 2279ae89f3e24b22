// What the cells of a Google Sheets sheet hold and show, for sheets.js: text a person types (or a script writes)
// retyped as Sheets retypes it in a cell of the automatic format, a formula's value, a value as a Japanese-locale
// spreadsheet displays it in its number format, and a sheet as a grid of such cells. Dates and times are serial day
// numbers (dates.js) shown through a date or time format.
'use strict';
const dates = require('./dates');

// MARK: - Typing

const isEmpty = cell => !cell || (cell.f === undefined && (cell.v === '' || cell.v === undefined || cell.v === null));

/** What Sheets makes of text typed into a cell that is not plain text (and of a string a script writes there). */
function retype(text, zone) {
  if (text === '') return {v: ''};
  // A leading apostrophe forces text and is not part of the value.
  if (text[0] === '\'') return {v: text.slice(1)};
  if (text[0] === '=' && text.length > 1) return {f: text};
  const t = text.trim();
  if (/^(true|false)$/i.test(t)) return {v: t.toLowerCase() === 'true'};
  if (/\d/.test(t) && /^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return {v: Number(t.replace(/,/g, ''))};
  const percent = /^([-+]?(?:\d+(?:\.(\d*))?|\.(\d+)))%$/.exec(t);
  if (percent) {
    const decimals = (percent[2] || percent[3] || '').length;
    return {v: Number(percent[1]) / 100, fmt: decimals ? '0.' + '0'.repeat(decimals) + '%' : '0%'};
  }
  const day = /^(\d{4})[\/-](\d{1,2})[\/-](\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (day) {
    const serial = daySerial(Number(day[1]), Number(day[2]), Number(day[3]));
    const time = day[4] === undefined ? 0 : timeSerial(Number(day[4]), Number(day[5]), Number(day[6] || 0));
    const fmt = day[4] === undefined ? 'yyyy/MM/dd' : 'yyyy/MM/dd H:mm:ss';
    if (serial !== null && time !== null) return {v: serial + time, fmt};
  }
  // A day without a year is in the current year, as Sheets takes it.
  const monthDay = /^(\d{1,2})[\/-](\d{1,2})$/.exec(t);
  if (monthDay) {
    const serial = daySerial(dates.wallClock(Date.now(), zone).year, Number(monthDay[1]), Number(monthDay[2]));
    if (serial !== null) return {v: serial, fmt: 'M/d'};
  }
  // A time alone is a serial number below 1: the Date getValues() hands out is on 1899-12-30, Sheets' day zero.
  const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (time) {
    const serial = timeSerial(Number(time[1]), Number(time[2]), Number(time[3] || 0));
    if (serial !== null) return {v: serial, fmt: 'H:mm:ss'};
  }
  return {v: text};
}

function daySerial(year, month, day) {
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return dates.serialOfWall({year, month, day});
}

function timeSerial(hour, minute, second) {
  return hour < 24 && minute < 60 && second < 60 ? (hour * 3600 + minute * 60 + second) / 86400 : null;
}

// MARK: - Formulas

/**
 * A formula's value. Only constant arithmetic is evaluated (numbers, "text", TRUE/FALSE, + - * / ^ & and comparisons);
 * a function or a reference is #NAME? here, since Sheets' functions are not imitated (IMPORTXML, HYPERLINK, A1…).
 */
function evaluate(formula) {
  const token = /\s+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|"(?:[^"]|"")*"|<>|<=|>=|[-+*\/^&()=<>%,]|[A-Za-z_$][\w.$!:]*|./g;
  const tokens = formula.slice(1).match(token).filter(t => !/^\s+$/.test(t));
  let i = 0;
  const error = code => { const e = new Error(code); e.sheetsError = code; throw e; };
  const peek = () => tokens[i];
  const number = v => {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v === '') return 0;
    const n = Number(v);
    return /\d/.test(v) && isFinite(n) ? n : error('#VALUE!');
  };
  const text = v => typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : typeof v === 'number' ? generalNumber(v) : v;
  function primary() {
    const t = tokens[i++];
    if (t === undefined) error('#ERROR!');
    if (t === '(') { const v = comparison(); if (tokens[i++] !== ')') error('#ERROR!'); return v; }
    if (t === '-') return -number(power());
    if (t === '+') return number(power());
    if (/^[\d.]/.test(t)) return Number(t);
    if (t[0] === '"') return t.slice(1, -1).replace(/""/g, '"');
    if (/^(TRUE|FALSE)$/i.test(t) && peek() !== '(') return t.toUpperCase() === 'TRUE';
    if (/^[A-Za-z_$]/.test(t)) error('#NAME?');
    return error('#ERROR!');
  }
  function percent() { let v = primary(); while (peek() === '%') { i++; v = number(v) / 100; } return v; }
  function power() { let v = percent(); while (peek() === '^') { i++; v = Math.pow(number(v), number(percent())); } return v; }
  function product() {
    let v = power();
    while (peek() === '*' || peek() === '/') {
      const op = tokens[i++], right = number(power());
      if (op === '/' && right === 0) error('#DIV/0!');
      v = op === '*' ? number(v) * right : number(v) / right;
    }
    return v;
  }
  function sum() {
    let v = product();
    while (peek() === '+' || peek() === '-') {
      const op = tokens[i++], right = number(product());
      v = op === '+' ? number(v) + right : number(v) - right;
    }
    return v;
  }
  function concat() { let v = sum(); while (peek() === '&') { i++; v = text(v) + text(sum()); } return v; }
  function comparison() {
    let v = concat();
    while (['=', '<>', '<', '>', '<=', '>='].includes(peek())) {
      const op = tokens[i++], r = concat();
      const a = typeof v === 'string' ? v.toLowerCase() : v, b = typeof r === 'string' ? r.toLowerCase() : r;
      v = op === '=' ? a === b : op === '<>' ? a !== b : op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
    }
    return v;
  }
  try {
    const value = comparison();
    if (i < tokens.length) error('#ERROR!');
    if (typeof value === 'number' && !isFinite(value)) error('#NUM!');
    return value;
  } catch (e) {
    if (e.sheetsError) return {error: e.sheetsError};
    throw e;
  }
}

// MARK: - Display

/** A number in the automatic format: plain decimal text (Sheets rounds to 15 significant digits). */
function generalNumber(n) {
  if (!isFinite(n)) return '#NUM!';
  if (Object.is(n, -0)) n = 0;
  const a = Math.abs(n);
  if (a !== 0 && (a >= 1e15 || a < 1e-9)) return n.toExponential(5).replace(/\.?0+e/, 'e').replace('e', 'E');
  let s = String(Number(n.toPrecision(15)));
  if (s.includes('e')) s = Number(n.toPrecision(15)).toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

function splitSections(format) {
  return (format.match(/(?:"[^"]*"|\\.|[^;])+/g) || ['']);
}

/** A number in a number format such as 0, 0.00, #,##0, 0%, ¥#,##0, "円"… (the first number placeholder run). */
function formatNumber(n, format) {
  const sections = splitSections(format);
  let section = sections[0], value = n, sign = '';
  if (n < 0 && sections.length > 1) { section = sections[1]; value = -n; }
  else if (n === 0 && sections.length > 2) section = sections[2];
  else if (n < 0) { sign = '-'; value = -n; }
  if (dates.isDateFormat(section)) return sign + dates.formatSerial(value, section);
  const tokens = section.match(/"[^"]*"|\\.|[#0?,.]+|./g) || [];
  if (tokens.includes('%')) value *= 100;
  let out = '', placed = false;
  for (const t of tokens) {
    if (t[0] === '"') out += t.slice(1, -1);
    else if (t[0] === '\\') out += t.slice(1);
    else if (/[#0?]/.test(t) && !placed) { out += digits(value, t); placed = true; }
    else if (t !== '_' && t !== '*') out += t;
  }
  return sign + (placed ? out : out || generalNumber(value));
}

function digits(value, run) {
  const [whole, fraction = ''] = run.split('.');
  const decimals = (fraction.match(/[0#?]/g) || []).length, least = (fraction.match(/0/g) || []).length;
  let [int, frac = ''] = value.toFixed(decimals).split('.');
  while (frac.length > least && frac.endsWith('0')) frac = frac.slice(0, -1);
  const minimum = (whole.match(/0/g) || []).length;
  int = int.padStart(minimum, '0');
  if (minimum === 0 && int === '0') int = '';
  if (whole.includes(',')) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? int + '.' + frac : int;
}

/** A value as a Japanese-locale spreadsheet displays it in `format`. */
function display(value, format) {
  if (value === '' || value === undefined || value === null) return '';
  if (typeof value === 'object' && value.error) return value.error;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  if (format === 'General' || format === '@' || !format) return generalNumber(value);
  return formatNumber(value, format);
}

// MARK: - A sheet's cells

/** A sheet: a grid of cells {v: value, f: formula, fmt: number format}, formats of whole columns, and its size. */
class Sheet {
  constructor(book, name, rows, columns) {
    Object.assign(this, {book, name, id: book.nextSheetId++, rows: [], formats: {}, frozenRows: 0});
    // A new sheet has 1000 rows and 26 columns.
    this.maxRows = rows || 1000;
    this.maxColumns = columns || 26;
  }
  cell(r, c) { const row = this.rows[r - 1]; return row ? row[c - 1] : undefined; }
  put(r, c, cell) {
    while (this.rows.length < r) this.rows.push([]);
    if (cell === undefined || (isEmpty(cell) && !cell.fmt)) delete this.rows[r - 1][c - 1];
    else this.rows[r - 1][c - 1] = cell;
  }
  format(r, c) { const cell = this.cell(r, c); return (cell && cell.fmt) || this.formats[c] || 'General'; }
  /** A whole column's format is every cell's in it, and the rows inserted later. */
  formatColumn(c, format) {
    this.formats[c] = format;
    this.rows.forEach((row, r) => {
      const cell = row && row[c - 1];
      if (cell) { delete cell.fmt; this.put(r + 1, c, cell); }
    });
  }
  lastRow() {
    for (let r = this.rows.length; r > 0; r--) if ((this.rows[r - 1] || []).some(cell => !isEmpty(cell))) return r;
    return 0;
  }
  lastColumn() {
    let last = 0;
    for (const row of this.rows) {
      for (let c = (row || []).length; c > last; c--) if (!isEmpty(row[c - 1])) { last = c; break; }
    }
    return last;
  }
  /** What getValues() hands out for a cell: a date or time cell as a Date (the instant its wall clock stands for). */
  value(r, c) {
    const cell = this.cell(r, c);
    if (isEmpty(cell)) return '';
    if (typeof cell.v === 'object' && cell.v.error) return cell.v.error;
    if (typeof cell.v === 'number' && dates.isDateFormat(this.format(r, c))) {
      return {$date: dates.instantOfSerial(cell.v, this.book.zone)};
    }
    return cell.v;
  }
  shown(r, c) { const cell = this.cell(r, c); return isEmpty(cell) ? '' : display(cell.v, this.format(r, c)); }
  formula(r, c) { const cell = this.cell(r, c); return cell && cell.f !== undefined ? cell.f : ''; }
  /** The cell a value becomes: `how` is 'typed' (a person), 'script' (setValue/setValues) or 'rich' (a RichTextValue). */
  entered(r, c, input, how) {
    const old = this.cell(r, c) || {};
    const format = this.format(r, c);
    const cell = old.fmt ? {fmt: old.fmt} : {};
    if (input === null || input === undefined) return Object.assign(cell, {v: ''});
    // Rich text is text, whatever the format: never retyped, never a formula.
    if (how === 'rich') return Object.assign(cell, {v: String(input)});
    let entered;
    if (typeof input === 'string') {
      // Google's reference for Range.setValue says a string starting with "=" is a formula, and does not say that the
      // plain-text format prevents it: from a script it is a formula in any format (the worst case). A person typing
      // into a plain-text cell gets the text.
      if (input[0] === '=' && input.length > 1 && how === 'script') entered = {f: input};
      else if (format === '@') entered = {v: input};
      else entered = retype(input, this.book.zone);
    } else if (typeof input === 'object' && input.$date !== undefined) {
      entered = format === '@' ? {v: new Date(input.$date).toString()}
        : {v: dates.serialOf(input.$date, this.book.zone), fmt: 'yyyy/MM/dd H:mm:ss'};
    } else if (typeof input === 'number') {
      entered = {v: format === '@' ? generalNumber(input) : input};
    } else if (typeof input === 'boolean') {
      entered = {v: format === '@' ? (input ? 'TRUE' : 'FALSE') : input};
    } else {
      entered = {v: String(input)};
    }
    if (entered.f !== undefined) entered.v = evaluate(entered.f);
    // A value that brings its own format (a date, a time, a percentage) sets it on a cell of the automatic format.
    if (entered.fmt && format === 'General') cell.fmt = entered.fmt;
    return Object.assign(cell, {v: entered.v, f: entered.f});
  }
  /** Inserts `count` rows before row `at` (count > 0), or deletes -count rows from `at`. */
  shiftRows(at, count) {
    while (this.rows.length < at - 1) this.rows.push([]);
    if (count > 0) {
      // New rows take the formats of the row above them, as Sheets' inserted rows do.
      const above = this.rows[at - 2] || [];
      const fresh = () => above.map(cell => (cell && cell.fmt ? {v: '', fmt: cell.fmt} : undefined));
      this.rows.splice(at - 1, 0, ...Array.from({length: count}, fresh));
    } else {
      this.rows.splice(at - 1, -count);
    }
  }
  shiftColumns(at, count) {
    for (const row of this.rows) {
      if (!row || row.length < at) continue;
      if (count > 0) row.splice(at - 1, 0, ...new Array(count));
      else row.splice(at - 1, -count);
    }
    const formats = {};
    for (const [key, format] of Object.entries(this.formats)) {
      const column = Number(key);
      if (column < at) formats[column] = format;
      else if (count > 0 || column >= at - count) formats[column + count] = format;
    }
    this.formats = formats;
  }
}

module.exports = {Sheet, isEmpty, retype, evaluate, generalNumber, formatNumber, display};
