// Google Sheets and Drive as host.js keeps them, in one place (the main thread) for every execution: spreadsheets are
// Drive files (trashed, restored, deleted for good), sheets keep cells as Sheets does (a value, a formula, a number
// format; dates and times are serial day numbers shown through a date or time format), text a person types or a script
// writes is retyped as Sheets retypes it, and Sheets' limits refuse a write whole. Messages are Google's wording.
//
// `call(execution, kind, ref, method, args)` runs one method of a SpreadsheetApp, Spreadsheet, Sheet, Range, DriveApp
// or File object. Arguments and answers travel as JSON with tags: {$date: ms}, {$rich: text}, {$kind, $ref} (an object
// of the services, e.g. a Sheet, whose $ref names it here).
'use strict';
const crypto = require('crypto');
const {Sheet} = require('./cells');

const CELL_CHARACTERS = 50000;
const WORKBOOK_CELLS = 10000000;
const SHEETS_MIME = 'application/vnd.google-apps.spreadsheet';

// Google's wording: Drive's and Sheets' own, as scripts meet them (quoted in the Apps Script issue tracker and by scripts
// that match on them; the reference pages do not list error messages).
const MESSAGE = {
  missing: id => 'Document ' + id + ' is missing (perhaps it was deleted, or you don\'t have read access?)',
  noItem: 'No item with the given ID could be found, or you do not have permission to access it.',
  cellTooLong: 'Your input contains more than the maximum of 50000 characters in a single cell.',
  workbookFull: 'This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
  lastSheet: 'You can\'t remove all the sheets in a document.',
  outside: 'The coordinates of the range are outside the dimensions of the sheet.',
  invalid: 'The coordinates or dimensions of the range are invalid.',
  rowsOut: 'Those rows are out of bounds.',
  columnsOut: 'Those columns are out of bounds.',
  allRows: 'You can\'t delete all the rows on the sheet.',
  allNonFrozen: 'Sorry, it is not possible to delete all non-frozen rows.',
  allColumns: 'You can\'t delete all the columns on the sheet.',
  sheetName: name => 'A sheet with the name "' + name + '" already exists. Please enter another name.',
  rangeNotFound: 'Range not found',
  dataRows: (data, range) => 'The number of rows in the data does not match the number of rows in the range. The data has ' +
    data + ' but the range has ' + range + '.',
  dataColumns: (data, range) => 'The number of columns in the data does not match the number of columns in the range. ' +
    'The data has ' + data + ' but the range has ' + range + '.',
  gone: (method, kind) => 'Unexpected error while getting the method or property ' + method + ' on object SpreadsheetApp.' +
    kind + '.',
  mismatch: (value, method) => 'The parameters (' + describe(value) + ') don\'t match the method signature for ' + method + '.',
};

/** An argument's type as Apps Script names it in its "parameters don't match" message. */
function describe(value) {
  if (Array.isArray(value)) return (value.length ? describe(value[0]) : 'Object') + '[]';
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'object' && value.$kind) return 'SpreadsheetApp.' + value.$kind;
  return typeof value === 'object' ? 'Object' : typeof value;
}

/** An exception of the services: it reaches the script as Apps Script's `Exception: message`. */
class ServiceError extends Error {
  constructor(message) { super(message); this.name = 'Exception'; }
}
const fail = message => { throw new ServiceError(message); };

// MARK: - Spreadsheets and sheets

const newId = () => crypto.randomBytes(33).toString('base64url');

/** A spreadsheet, which is also a Drive file: in the trash or not, or deleted for good. */
class Book {
  constructor(name, zone) {
    Object.assign(this, {id: newId(), name, zone, locale: 'ja_JP', sheets: [], trashed: false, deleted: false,
                         nextSheetId: 0, created: Date.now(), updated: Date.now()});
  }
  /** Sheets' limit: 10 million cells (rows times columns of every sheet) a spreadsheet. */
  grow(cells) {
    const now = this.sheets.reduce((sum, s) => sum + s.maxRows * s.maxColumns, 0);
    if (now + cells > WORKBOOK_CELLS) fail(MESSAGE.workbookFull);
  }
  url() { return 'https://docs.google.com/spreadsheets/d/' + this.id + '/edit'; }
}

// MARK: - Ranges

const tag = (kind, ref) => ({$kind: kind, $ref: ref});
const bookTag = book => tag('Spreadsheet', {book: book.id});
const sheetTag = sheet => tag('Sheet', {book: sheet.book.id, sheet: sheet.id});
const fileTag = book => tag('File', {file: book.id});
const whole = (value, what) => {
  if (typeof value !== 'number' || !isFinite(value)) fail('Invalid argument: ' + what);
  return Math.floor(value);
};
const columnNumber = letters => letters.toUpperCase().split('').reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
function columnLetters(n) {
  let letters = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + (n - 1) % 26) + letters;
  return letters;
}

/** A1 notation (A1, A1:C5, A:C, A2:C, 1:3) as {row, column, rows, columns, toEnd, toRight}, or null. */
function parseA1(text) {
  text = String(text).trim();
  const m = /^\$?([A-Za-z]+)?\$?(\d+)?(?::\$?([A-Za-z]+)?\$?(\d+)?)?$/.exec(text);
  if (!m || (!m[1] && !m[2])) return null;
  const [, c1, r1, c2, r2] = m;
  const pair = text.includes(':');
  if (pair ? (!c2 && !r2) || ((c1 === undefined) !== (c2 === undefined) && (r1 === undefined || r2 === undefined)) : !c1 || !r1) {
    return null;
  }
  const column = c1 ? columnNumber(c1) : 1, row = r1 ? Number(r1) : 1;
  const lastColumn = pair ? (c2 ? columnNumber(c2) : null) : column;
  const lastRow = pair ? (r2 ? Number(r2) : null) : row;
  return {row, column, rows: lastRow === null ? null : lastRow - row + 1, columns: lastColumn === null ? null : lastColumn - column + 1,
          toEnd: lastRow === null, toRight: lastColumn === null};
}

// MARK: - Google's side

class Google {
  constructor(zone) {
    this.zone = zone;
    this.books = [];
    this.flushes = 0;
  }

  create(name, rows, columns) {
    const book = new Book(String(name), this.zone);
    book.sheets.push(new Sheet(book, 'シート1', rows, columns));  // the owner's locale is Japanese
    this.books.push(book);
    return book;
  }
  open(id) {
    const book = this.books.find(b => b.id === id);
    // A trashed spreadsheet still opens (it is only in the trash); a deleted one is missing.
    if (!book || book.deleted) fail(MESSAGE.missing(id));
    return book;
  }
  file(id) {
    const book = this.books.find(b => b.id === id);
    if (!book || book.deleted) fail(MESSAGE.noItem);
    return book;
  }
  /** Drive's search terms that scripts use (title/name, mimeType, trashed, owners), joined by `and`. */
  search(query) {
    const tests = String(query).trim().split(/\s+and\s+/i).filter(Boolean).map(term => {
      const m = /^(title|name|mimeType)\s*(=|!=|contains)\s*(["'])((?:\\.|(?!\3).)*)\3$/i.exec(term);
      if (m) {
        const wanted = m[4].replace(/\\(.)/g, '$1');
        const of = m[1].toLowerCase() === 'mimetype' ? () => SHEETS_MIME : book => book.name;
        if (m[2] === '=') return book => of(book) === wanted;
        if (m[2] === '!=') return book => of(book) !== wanted;
        return book => of(book).toLowerCase().includes(wanted.toLowerCase());
      }
      const trashed = /^trashed\s*(=|!=)\s*(true|false)$/i.exec(term);
      if (trashed) return book => (book.trashed === (trashed[2].toLowerCase() === 'true')) === (trashed[1] === '=');
      // Every spreadsheet here is the owner's.
      if (/^(["'])(me|.+@.+)\1\s+in\s+owners$/i.test(term)) return () => true;
      return fail('Invalid argument: q');
    });
    return this.books.filter(book => !book.deleted && tests.every(test => test(book)));
  }

  /** One call of a method of a SpreadsheetApp, Spreadsheet, Sheet, Range, DriveApp or File object. */
  call(execution, kind, ref, method, args) {
    return this[kind][method].call(this, execution, ref, ...args);
  }

  book(ref) { return this.open(ref.book); }

  /** What every spreadsheet holds now, for `restore`: writes Sheets had not applied when a flush failed are lost. */
  snapshot() {
    const keep = sheet => ({sheet, state: structuredClone({name: sheet.name, rows: sheet.rows, formats: sheet.formats,
                                                           maxRows: sheet.maxRows, maxColumns: sheet.maxColumns,
                                                           frozenRows: sheet.frozenRows})});
    return this.books.map(book => ({book, name: book.name, sheets: book.sheets.map(keep)}));
  }
  restore(snapshot) {
    this.books = snapshot.map(saved => {
      saved.book.name = saved.name;
      saved.book.sheets = saved.sheets.map(kept => Object.assign(kept.sheet, structuredClone(kept.state)));
      return saved.book;
    });
  }
  sheet(ref, method) {
    const sheet = this.open(ref.book).sheets.find(s => s.id === ref.sheet);
    if (!sheet) fail(MESSAGE.gone(method, 'Sheet'));
    return sheet;
  }
  /** A range as it stands now: whole columns (A:C) reach the sheet's last row, whatever rows were inserted since. */
  range(ref, method) {
    const sheet = this.sheet(ref, method);
    const rows = ref.toEnd ? sheet.maxRows - ref.row + 1 : ref.rows;
    const columns = ref.toRight ? sheet.maxColumns - ref.column + 1 : ref.columns;
    if (ref.row + rows - 1 > sheet.maxRows || ref.column + columns - 1 > sheet.maxColumns) fail(MESSAGE.outside);
    return {sheet, row: ref.row, column: ref.column, rows, columns, ref};
  }
  grid(range, read) {
    const line = r => Array.from({length: range.columns}, (_, c) => read(range.row + r, range.column + c));
    return Array.from({length: range.rows}, (_, r) => line(r));
  }
  /** Checks a grid against a range and Sheets' cell limit before anything is written: a refused write writes nothing. */
  checked(range, values, method) {
    if (!Array.isArray(values) || values.some(line => !Array.isArray(line))) {
      fail(MESSAGE.mismatch(values, 'SpreadsheetApp.Range.' + method));
    }
    if (values.length !== range.rows) fail(MESSAGE.dataRows(values.length, range.rows));
    for (const line of values) if (line.length !== range.columns) fail(MESSAGE.dataColumns(line.length, range.columns));
    for (const line of values) {
      for (const v of line) {
        const text = v && typeof v === 'object' && v.$rich !== undefined ? v.$rich : v;
        if (typeof text === 'string' && text.length > CELL_CHARACTERS) fail(MESSAGE.cellTooLong);
      }
    }
    return values;
  }
  write(range, values, how) {
    const text = v => (how === 'rich' && v && v.$rich !== undefined ? v.$rich : v);
    const cells = values.map((line, i) => line.map((v, j) => range.sheet.entered(range.row + i, range.column + j, text(v), how)));
    cells.forEach((line, i) => line.forEach((cell, j) => range.sheet.put(range.row + i, range.column + j, cell)));
    range.sheet.book.updated = Date.now();
  }
  makeRange(sheet, row, column, rows, columns) {
    if (typeof row === 'string' && column === undefined) {
      const parsed = parseA1(row);
      if (!parsed) fail(MESSAGE.rangeNotFound);
      const ref = Object.assign({book: sheet.book.id, sheet: sheet.id}, parsed);
      this.range(ref, 'getRange');
      return tag('Range', ref);
    }
    row = whole(row, 'row');
    column = whole(column, 'column');
    rows = rows === undefined ? 1 : whole(rows, 'numRows');
    columns = columns === undefined ? 1 : whole(columns, 'numColumns');
    if (row < 1 || column < 1) fail(MESSAGE.invalid);
    if (rows < 1) fail('The number of rows in the range must be at least 1.');
    if (columns < 1) fail('The number of columns in the range must be at least 1.');
    // As Sheets refuses a range past the sheet's rows or columns.
    if (row + rows - 1 > sheet.maxRows || column + columns - 1 > sheet.maxColumns) fail(MESSAGE.outside);
    return tag('Range', {book: sheet.book.id, sheet: sheet.id, row, column, rows, columns});
  }
  /** The sheet an execution has active in a spreadsheet: the first, until it inserts or activates one. */
  active(execution, book) {
    const id = execution.active.get(book.id);
    return book.sheets.find(s => s.id === id) || book.sheets[0];
  }
}

// MARK: - The services' methods: (execution, ref, ...arguments) → a value, tagged

Google.prototype.SpreadsheetApp = {
  create(execution, ref, name, rows, columns) {
    if (name === undefined || name === null || String(name) === '') fail('Invalid argument: name');
    return bookTag(this.create(name, rows, columns));
  },
  openById(execution, ref, id) { return bookTag(this.open(String(id))); },
  openByUrl(execution, ref, url) {
    const m = /\/d\/([\w-]+)/.exec(String(url));
    if (!m) fail('Invalid argument: url');
    return bookTag(this.open(m[1]));
  },
  flush() { this.flushes += 1; },
  // A web app is no spreadsheet's container.
  getActiveSpreadsheet() { return null; },
};

Google.prototype.Spreadsheet = {
  getId(execution, ref) { return this.book(ref).id; },
  getName(execution, ref) { return this.book(ref).name; },
  rename(execution, ref, name) { this.book(ref).name = String(name); },
  getUrl(execution, ref) { return this.book(ref).url(); },
  getSpreadsheetTimeZone(execution, ref) { return this.book(ref).zone; },
  setSpreadsheetTimeZone(execution, ref, zone) { this.book(ref).zone = String(zone); },
  getSpreadsheetLocale(execution, ref) { return this.book(ref).locale; },
  getSheetByName(execution, ref, name) {
    const sheet = this.book(ref).sheets.find(s => s.name === String(name));
    return sheet ? sheetTag(sheet) : null;
  },
  getSheetById(execution, ref, id) {
    const sheet = this.book(ref).sheets.find(s => s.id === id);
    return sheet ? sheetTag(sheet) : null;
  },
  getSheets(execution, ref) { return this.book(ref).sheets.map(sheetTag); },
  getNumSheets(execution, ref) { return this.book(ref).sheets.length; },
  getActiveSheet(execution, ref) { return sheetTag(this.active(execution, this.book(ref))); },
  /** insertSheet(), (index), (name), (name, index), each maybe with options: the index counts from 0. */
  insertSheet(execution, ref, name, index) {
    const book = this.book(ref);
    if (typeof name === 'number') [name, index] = [undefined, name];
    if (name && typeof name === 'object') name = undefined;
    if (index && typeof index === 'object') index = undefined;
    if (name === undefined) {
      let n = book.sheets.length + 1;
      while (book.sheets.some(s => s.name === 'シート' + n)) n++;
      name = 'シート' + n;
    }
    name = String(name);
    if (book.sheets.some(s => s.name === name)) fail(MESSAGE.sheetName(name));
    book.grow(1000 * 26);
    const sheet = new Sheet(book, name);
    // Without an index the new sheet goes right after the active one (the first, in a script that opened the book by
    // id) and becomes the active one: the reference does not say where it goes, so not at the end (the worst case).
    const at = index === undefined ? book.sheets.indexOf(this.active(execution, book)) + 1
      : Math.max(0, Math.min(whole(index, 'sheetIndex'), book.sheets.length));
    book.sheets.splice(at, 0, sheet);
    execution.active.set(book.id, sheet.id);
    return sheetTag(sheet);
  },
  deleteSheet(execution, ref, sheet) {
    const book = this.book(ref);
    const doomed = sheet && sheet.$ref && sheet.$ref.book === book.id && book.sheets.find(s => s.id === sheet.$ref.sheet);
    if (!doomed) fail(MESSAGE.mismatch(sheet, 'SpreadsheetApp.Spreadsheet.deleteSheet'));
    if (book.sheets.length === 1) fail(MESSAGE.lastSheet);
    book.sheets.splice(book.sheets.indexOf(doomed), 1);
  },
  getRange(execution, ref, a1) {
    const book = this.book(ref);
    const m = /^(?:'((?:[^']|'')+)'|([^!]+))!(.+)$/.exec(String(a1));
    const sheet = !m ? this.active(execution, book)
      : book.sheets.find(s => s.name === (m[1] !== undefined ? m[1].replace(/''/g, '\'') : m[2]));
    if (!sheet) fail(MESSAGE.rangeNotFound);
    return this.makeRange(sheet, m ? m[3] : String(a1));
  },
};

Google.prototype.Sheet = {
  getName(execution, ref) { return this.sheet(ref, 'getName').name; },
  setName(execution, ref, name) {
    const sheet = this.sheet(ref, 'setName');
    name = String(name);
    if (sheet.book.sheets.some(s => s !== sheet && s.name === name)) fail(MESSAGE.sheetName(name));
    sheet.name = name;
    return sheetTag(sheet);
  },
  getSheetId(execution, ref) { return this.sheet(ref, 'getSheetId').id; },
  getIndex(execution, ref) { const sheet = this.sheet(ref, 'getIndex'); return sheet.book.sheets.indexOf(sheet) + 1; },
  getParent(execution, ref) { return bookTag(this.sheet(ref, 'getParent').book); },
  activate(execution, ref) {
    const sheet = this.sheet(ref, 'activate');
    execution.active.set(sheet.book.id, sheet.id);
    return sheetTag(sheet);
  },
  getLastRow(execution, ref) { return this.sheet(ref, 'getLastRow').lastRow(); },
  getLastColumn(execution, ref) { return this.sheet(ref, 'getLastColumn').lastColumn(); },
  getMaxRows(execution, ref) { return this.sheet(ref, 'getMaxRows').maxRows; },
  getFrozenRows(execution, ref) { return this.sheet(ref, 'getFrozenRows').frozenRows; },
  setFrozenRows(execution, ref, rows) {
    const sheet = this.sheet(ref, 'setFrozenRows');
    rows = whole(rows, 'rows');
    if (rows < 0 || rows >= sheet.maxRows) fail(MESSAGE.rowsOut);
    sheet.frozenRows = rows;
    return sheetTag(sheet);
  },
  getMaxColumns(execution, ref) { return this.sheet(ref, 'getMaxColumns').maxColumns; },
  insertRowsAfter(execution, ref, after, count) { return insertRows(this, ref, whole(after, 'afterPosition') + 1, count, true); },
  insertRowAfter(execution, ref, after) { return insertRows(this, ref, whole(after, 'afterPosition') + 1, 1, true); },
  insertRowsBefore(execution, ref, before, count) { return insertRows(this, ref, before, count, false); },
  insertRowBefore(execution, ref, before) { return insertRows(this, ref, before, 1, false); },
  insertRows(execution, ref, before, count) { return insertRows(this, ref, before, count === undefined ? 1 : count, false); },
  insertColumnsAfter(execution, ref, after, count) { return insertColumns(this, ref, whole(after, 'afterPosition') + 1, count, true); },
  insertColumnAfter(execution, ref, after) { return insertColumns(this, ref, whole(after, 'afterPosition') + 1, 1, true); },
  insertColumnsBefore(execution, ref, before, count) { return insertColumns(this, ref, before, count, false); },
  insertColumnBefore(execution, ref, before) { return insertColumns(this, ref, before, 1, false); },
  insertColumns(execution, ref, before, count) { return insertColumns(this, ref, before, count === undefined ? 1 : count, false); },
  deleteRow(execution, ref, row) { return this.Sheet.deleteRows.call(this, execution, ref, row, 1); },
  deleteRows(execution, ref, start, count) {
    const sheet = this.sheet(ref, 'deleteRows');
    start = whole(start, 'rowPosition');
    count = whole(count, 'howMany');
    if (start < 1 || count < 1 || start + count - 1 > sheet.maxRows) fail(MESSAGE.rowsOut);
    if (count >= sheet.maxRows) fail(MESSAGE.allRows);
    // A frozen header (as a person freezes row 1 in View › Freeze) must keep a row below it.
    if (sheet.frozenRows > 0 && count >= sheet.maxRows - sheet.frozenRows) fail(MESSAGE.allNonFrozen);
    sheet.shiftRows(start, -count);
    sheet.maxRows -= count;
    sheet.book.updated = Date.now();
    return sheetTag(sheet);
  },
  deleteColumn(execution, ref, column) { return this.Sheet.deleteColumns.call(this, execution, ref, column, 1); },
  deleteColumns(execution, ref, start, count) {
    const sheet = this.sheet(ref, 'deleteColumns');
    start = whole(start, 'columnPosition');
    count = whole(count, 'howMany');
    if (start < 1 || count < 1 || start + count - 1 > sheet.maxColumns) fail(MESSAGE.columnsOut);
    if (count >= sheet.maxColumns) fail(MESSAGE.allColumns);
    sheet.shiftColumns(start, -count);
    sheet.maxColumns -= count;
    return sheetTag(sheet);
  },
  getRange(execution, ref, row, column, rows, columns) {
    return this.makeRange(this.sheet(ref, 'getRange'), row, column, rows, columns);
  },
  getDataRange(execution, ref) {
    const sheet = this.sheet(ref, 'getDataRange');
    return this.makeRange(sheet, 1, 1, Math.max(sheet.lastRow(), 1), Math.max(sheet.lastColumn(), 1));
  },
  appendRow(execution, ref, values) {
    const sheet = this.sheet(ref, 'appendRow');
    if (!Array.isArray(values)) fail(MESSAGE.mismatch(values, 'SpreadsheetApp.Sheet.appendRow'));
    if (values.length > sheet.maxColumns) fail(MESSAGE.outside);
    const range = {sheet, row: sheet.lastRow() + 1, column: 1, rows: 1, columns: values.length};
    this.checked(range, [values], 'appendRow');
    // A full sheet grows by the row appended.
    if (range.row > sheet.maxRows) { sheet.book.grow(sheet.maxColumns); sheet.maxRows += 1; }
    this.write(range, [values], 'script');
    return sheetTag(sheet);
  },
  clear(execution, ref) {
    const sheet = this.sheet(ref, 'clear');
    sheet.rows = [];
    sheet.formats = {};
    return sheetTag(sheet);
  },
  clearContents(execution, ref) {
    const sheet = this.sheet(ref, 'clearContents');
    sheet.rows = sheet.rows.map(row => (row || []).map(cell => (cell && cell.fmt ? {v: '', fmt: cell.fmt} : undefined)));
    return sheetTag(sheet);
  },
  clearFormats(execution, ref) {
    const sheet = this.sheet(ref, 'clearFormats');
    sheet.formats = {};
    sheet.rows.forEach(row => (row || []).forEach(cell => { if (cell) delete cell.fmt; }));
    return sheetTag(sheet);
  },
};

/** insertRows…: `at` is the first new row; `after` allows one past the last row (insertRowsAfter(maxRows, n)). */
function insertRows(google, ref, at, count, after) {
  const sheet = google.sheet(ref, 'insertRows');
  at = whole(at, 'rowPosition');
  count = whole(count, 'howMany');
  if (at < (after ? 2 : 1) || at > sheet.maxRows + (after ? 1 : 0) || count < 1) fail(MESSAGE.rowsOut);
  sheet.book.grow(count * sheet.maxColumns);
  sheet.shiftRows(at, count);
  sheet.maxRows += count;
  return sheetTag(sheet);
}

function insertColumns(google, ref, at, count, after) {
  const sheet = google.sheet(ref, 'insertColumns');
  at = whole(at, 'columnPosition');
  count = whole(count, 'howMany');
  if (at < (after ? 2 : 1) || at > sheet.maxColumns + (after ? 1 : 0) || count < 1) fail(MESSAGE.columnsOut);
  sheet.book.grow(count * sheet.maxRows);
  sheet.shiftColumns(at, count);
  sheet.maxColumns += count;
  return sheetTag(sheet);
}

/** A Range method that reads every cell with `read(sheet, row, column)`, as a grid, or its first cell alone. */
const reading = (method, read) => function (execution, ref) {
  const range = this.range(ref, method);
  return this.grid(range, (r, c) => read(range.sheet, r, c));
};
const readingFirst = (method, read) => function (execution, ref) {
  const range = this.range(ref, method);
  return read(range.sheet, range.row, range.column);
};
const value = (sheet, r, c) => sheet.value(r, c);
const shown = (sheet, r, c) => sheet.shown(r, c);
const formula = (sheet, r, c) => sheet.formula(r, c);
const format = (sheet, r, c) => sheet.format(r, c);
// A cell that holds no text (a number, a date, a boolean) has no rich text value.
const rich = (sheet, r, c) => (typeof sheet.value(r, c) === 'string' ? {$rich: sheet.shown(r, c)} : null);

Google.prototype.Range = {
  getValues: reading('getValues', value),
  getValue: readingFirst('getValue', value),
  getDisplayValues: reading('getDisplayValues', shown),
  getDisplayValue: readingFirst('getDisplayValue', shown),
  getFormulas: reading('getFormulas', formula),
  getFormula: readingFirst('getFormula', formula),
  getNumberFormats: reading('getNumberFormats', format),
  getNumberFormat: readingFirst('getNumberFormat', format),
  getRichTextValues: reading('getRichTextValues', rich),
  getRichTextValue: readingFirst('getRichTextValue', rich),
  setValues(execution, ref, values) {
    const range = this.range(ref, 'setValues');
    this.write(range, this.checked(range, values, 'setValues'), 'script');
    return tag('Range', ref);
  },
  // setValue sets every cell of the range to the value.
  setValue(execution, ref, v) {
    const range = this.range(ref, 'setValue');
    this.write(range, this.checked(range, this.grid(range, () => (v === undefined ? null : v)), 'setValue'), 'script');
    return tag('Range', ref);
  },
  setFormula(execution, ref, text) { return this.Range.setValue.call(this, execution, ref, String(text)); },
  setFormulas(execution, ref, texts) { return this.Range.setValues.call(this, execution, ref, texts); },
  setRichTextValues(execution, ref, values) {
    const range = this.range(ref, 'setRichTextValues');
    this.checked(range, values, 'setRichTextValues');
    if (values.some(line => line.some(v => !v || v.$rich === undefined))) {
      fail(MESSAGE.mismatch(values, 'SpreadsheetApp.Range.setRichTextValues'));
    }
    this.write(range, values, 'rich');
    return tag('Range', ref);
  },
  setRichTextValue(execution, ref, v) {
    const range = this.range(ref, 'setRichTextValue');
    return this.Range.setRichTextValues.call(this, execution, ref, this.grid(range, () => v));
  },
  setNumberFormat(execution, ref, text) {
    const range = this.range(ref, 'setNumberFormat');
    if (ref.toEnd && ref.row === 1) {
      for (let c = range.column; c < range.column + range.columns; c++) range.sheet.formatColumn(c, String(text));
    } else {
      this.grid(range, (r, c) => range.sheet.put(r, c, Object.assign({v: ''}, range.sheet.cell(r, c), {fmt: String(text)})));
    }
    return tag('Range', ref);
  },
  setNumberFormats(execution, ref, texts) {
    const range = this.range(ref, 'setNumberFormats');
    this.checked(range, texts, 'setNumberFormats');
    this.grid(range, (r, c) => {
      const fmt = String(texts[r - range.row][c - range.column]);
      range.sheet.put(r, c, Object.assign({v: ''}, range.sheet.cell(r, c), {fmt}));
    });
    return tag('Range', ref);
  },
  clear(execution, ref) {
    const range = this.range(ref, 'clear');
    this.grid(range, (r, c) => range.sheet.put(r, c, undefined));
    return tag('Range', ref);
  },
  clearContent(execution, ref) {
    const range = this.range(ref, 'clearContent');
    this.grid(range, (r, c) => {
      const cell = range.sheet.cell(r, c);
      range.sheet.put(r, c, cell && cell.fmt ? {v: '', fmt: cell.fmt} : undefined);
    });
    return tag('Range', ref);
  },
  getRow(execution, ref) { return this.range(ref, 'getRow').row; },
  getColumn(execution, ref) { return this.range(ref, 'getColumn').column; },
  getNumRows(execution, ref) { return this.range(ref, 'getNumRows').rows; },
  getNumColumns(execution, ref) { return this.range(ref, 'getNumColumns').columns; },
  getHeight(execution, ref) { return this.range(ref, 'getHeight').rows; },
  getWidth(execution, ref) { return this.range(ref, 'getWidth').columns; },
  getLastRow(execution, ref) { const range = this.range(ref, 'getLastRow'); return range.row + range.rows - 1; },
  getLastColumn(execution, ref) { const range = this.range(ref, 'getLastColumn'); return range.column + range.columns - 1; },
  getA1Notation(execution, ref) {
    const range = this.range(ref, 'getA1Notation');
    const first = columnLetters(range.column), last = columnLetters(range.column + range.columns - 1);
    if (ref.toEnd && ref.row === 1) return first + ':' + last;
    const from = first + range.row, to = last + (range.row + range.rows - 1);
    return from === to ? from : from + ':' + to;
  },
  getSheet(execution, ref) { return sheetTag(this.range(ref, 'getSheet').sheet); },
  offset(execution, ref, rows, columns, height, width) {
    const range = this.range(ref, 'offset');
    return this.makeRange(range.sheet, range.row + whole(rows, 'rowOffset'), range.column + whole(columns, 'columnOffset'),
                          height === undefined ? range.rows : height, width === undefined ? range.columns : width);
  },
};

Google.prototype.DriveApp = {
  getFileById(execution, ref, id) { return fileTag(this.file(String(id))); },
  searchFiles(execution, ref, query) { return this.search(query).map(fileTag); },
  getFilesByName(execution, ref, name) { return this.books.filter(b => !b.deleted && b.name === String(name)).map(fileTag); },
  getFiles() { return this.books.filter(b => !b.deleted).map(fileTag); },
};

Google.prototype.File = {
  getId(execution, ref) { return this.file(ref.file).id; },
  getName(execution, ref) { return this.file(ref.file).name; },
  setName(execution, ref, name) { this.file(ref.file).name = String(name); return fileTag(this.file(ref.file)); },
  getMimeType(execution, ref) { this.file(ref.file); return SHEETS_MIME; },
  getUrl(execution, ref) { return this.file(ref.file).url(); },
  isTrashed(execution, ref) { return this.file(ref.file).trashed; },
  setTrashed(execution, ref, trashed) { this.file(ref.file).trashed = !!trashed; return fileTag(this.file(ref.file)); },
  getDateCreated(execution, ref) { return {$date: this.file(ref.file).created}; },
  getLastUpdated(execution, ref) { return {$date: this.file(ref.file).updated}; },
};

// The files a search found are walked in the script's thread (worker.js); each step is still a call to Drive.
Google.prototype.FileIterator = {hasNext() {}, next() {}, getContinuationToken() {}};

// MARK: - What the tests see and do

/** A book as /_control/state shows it. */
function stateOf(google, book) {
  return {
    name: book.name, id: book.id, trashed: book.trashed, deleted: book.deleted, flushes: google.flushes,
    sheets: book.sheets.map(sheet => {
      const rows = sheet.lastRow(), columns = sheet.lastColumn();
      const grid = read => Array.from({length: rows}, (_, r) => Array.from({length: columns}, (_, c) => read(r + 1, c + 1)));
      const cellFormats = {};
      sheet.rows.forEach((row, r) => (row || []).forEach((cell, c) => {
        if (cell && cell.fmt) cellFormats[(r + 1) + ':' + (c + 1)] = cell.fmt;
      }));
      return {
        name: sheet.name,
        // What getValues() hands out, dates as JSON writes a Date.
        cells: grid((r, c) => { const v = sheet.value(r, c); return v && v.$date !== undefined ? new Date(v.$date) : v; }),
        displayed: grid((r, c) => sheet.shown(r, c)),
        formulas: grid((r, c) => sheet.formula(r, c)),
        formats: sheet.formats, cellFormats, maxRows: sheet.maxRows, maxColumns: sheet.maxColumns, frozenRows: sheet.frozenRows,
      };
    }),
  };
}

/** A person types into a cell: retyped as Sheets retypes it, unless the cell is plain text. */
function type(sheet, row, column, typed) {
  if (!(row >= 1 && row <= sheet.maxRows && column >= 1 && column <= sheet.maxColumns)) fail(MESSAGE.outside);
  // What is typed is text: a JSON number or boolean is typed as its text.
  const text = typed === null || typed === undefined ? '' : typeof typed === 'boolean' ? (typed ? 'TRUE' : 'FALSE') : String(typed);
  if (text.length > CELL_CHARACTERS) fail(MESSAGE.cellTooLong);
  sheet.put(row, column, sheet.entered(row, column, text, 'typed'));
  sheet.book.updated = Date.now();
}

module.exports = {Google, ServiceError, MESSAGE, stateOf, type};
