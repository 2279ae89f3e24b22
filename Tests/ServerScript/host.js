// Runs Resources/server/Code.gs unmodified under Node.js, behind an HTTP front end that answers as Apps Script does,
// for the tests: imitations of SpreadsheetApp (with Sheets' retyping of text typed into cells left at their default
// format, and plain-text columns that keep text), DriveApp, ContentService, LockService, PropertiesService,
// CacheService and Utilities. Standard library only.
//
//   node host.js [--port N] [--key SECRET] [--zone Asia/Tokyo] [--lose-answers N] [--script FILE (another Code.gs)]
//       prints "PORT n", serves until stdin closes; --lose-answers N runs the first N POSTs and then drops their
//       connections, as a network does when the answer is lost after the script ran
//
// HTTP, as script.google.com answers a web app: GET or POST /exec runs doGet/doPost and answers 302 to
// /echo?user_content_key=… on a second port (another origin, as the redirect host is in real life), whose GET hands
// out the output once; an exception that escapes the script is 200 text/html.
//
// Controls for the tests:
//   POST /_control/down "1"|"0"   drops every /exec connection unanswered while on (the server cannot be reached)
//   POST /_control/lose "n@k"     answers k POSTs, then drops the answers of n after running them (as --lose-answers)
//   GET  /_control/calls          how many scripts ran, by method
//   GET  /_control/state          every sheet's cells and formats
//   POST /_control/type {"book","sheet","row","column","value"}   types into a cell as a person would (retyped as
//                                 Sheets retypes it)
//   POST /_control/format {"book","sheet","column","format"}     sets a column's format, as an older sheet has it
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const crypto = require('crypto');

const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf('--' + name); return i >= 0 ? args[i + 1] : fallback; };
const SCRIPT = option('script', path.join(__dirname, '..', '..', 'Resources', 'server', 'Code.gs'));
const ZONE = option('zone', 'Asia/Tokyo');

// MARK: - Sheets

/** What Sheets makes of text typed into a cell of the default (automatic) format. */
function retype(value) {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (/^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  if (/^[-+]?(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$/.test(trimmed)) return Number(trimmed.replace(/,/g, ''));
  const date = /^(\d{4})[\/-](\d{1,2})[\/-](\d{1,2})$/.exec(trimmed);
  if (date) return tokyoMidnight(Number(date[1]), Number(date[2]), Number(date[3]));
  return value;
}

// The script's own Date (its vm context is another realm): `cell instanceof Date` must hold in the script, as in Apps Script.
let ScriptDate = Date;

function tokyoMidnight(year, month, day) {
  return new ScriptDate(Date.UTC(year, month - 1, day) - 9 * 3600 * 1000);
}

class Range {
  constructor(sheet, row, column, rows, columns) { Object.assign(this, {sheet, row, column, rows, columns}); }
  setNumberFormat(format) {
    for (let c = this.column; c < this.column + this.columns; c++) {
      if (this.rows === Infinity) this.sheet.formats[c] = format;
      else for (let r = this.row; r < this.row + this.rows; r++) this.sheet.cellFormats[r + ':' + c] = format;
    }
    return this;
  }
  setValues(values) {
    if (values.length !== this.rows || values.some(v => v.length !== this.columns)) {
      throw new Error('The number of rows or columns in the data does not match the range');
    }
    values.forEach((cells, i) => cells.forEach((value, j) => this.sheet.write(this.row + i, this.column + j, value)));
    return this;
  }
  getValues() {
    const out = [];
    for (let r = this.row; r < this.row + this.rows; r++) {
      const line = [];
      for (let c = this.column; c < this.column + this.columns; c++) line.push(this.sheet.read(r, c));
      out.push(line);
    }
    return out;
  }
}

class Sheet {
  constructor(parent, name) { Object.assign(this, {parent, name, cells: [], formats: {}, cellFormats: {}, maxRows: 1000}); }
  getMaxRows() { return this.maxRows; }
  insertRowsAfter(after, count) { this.maxRows += count; return this; }
  getName() { return this.name; }
  getParent() { return this.parent; }
  format(row, column) { return this.cellFormats[row + ':' + column] || this.formats[column] || 'General'; }
  write(row, column, value) {
    while (this.cells.length < row) this.cells.push([]);
    const stored = this.format(row, column) === '@' ? (value === null || value === undefined ? '' : String(value)) : retype(value);
    this.cells[row - 1][column - 1] = stored;
  }
  read(row, column) {
    const value = (this.cells[row - 1] || [])[column - 1];
    return value === undefined || value === null ? '' : value;
  }
  getLastRow() {
    for (let r = this.cells.length; r > 0; r--) if ((this.cells[r - 1] || []).some(v => v !== '' && v !== undefined)) return r;
    return 0;
  }
  getLastColumn() { return this.cells.reduce((most, line) => Math.max(most, line.length), 0); }
  getRange(row, column, rows, columns) {
    if (typeof row === 'string') {
      const match = /^([A-Z]):([A-Z])$/.exec(row);
      const first = match[1].charCodeAt(0) - 64, last = match[2].charCodeAt(0) - 64;
      return new Range(this, 1, first, Infinity, last - first + 1);
    }
    const range = new Range(this, row, column, rows === undefined ? 1 : rows, columns === undefined ? 1 : columns);
    // As Sheets refuses a range past the sheet's rows (a new sheet has 1000).
    if (range.row + range.rows - 1 > this.maxRows) throw new Error('The coordinates of the range are outside the dimensions of the sheet.');
    return range;
  }
  getDataRange() { return new Range(this, 1, 1, this.getLastRow(), Math.max(this.getLastColumn(), 1)); }
  deleteRow(row) { this.cells.splice(row - 1, 1); this.maxRows -= 1; }
}

class Spreadsheet {
  constructor(name) { Object.assign(this, {name, id: crypto.randomUUID(), sheets: []}); }
  getId() { return this.id; }
  getName() { return this.name; }
  getSpreadsheetTimeZone() { return ZONE; }
  getSheetByName(name) { return this.sheets.find(s => s.name === name) || null; }
  insertSheet(name) { const sheet = new Sheet(this, name); this.sheets.push(sheet); return sheet; }
}

const books = [];
let flushes = 0;
const properties = {};
if (option('key')) properties.EXPENSE_LOG_KEY = option('key');

const scriptCache = new Map();
const services = {
  SpreadsheetApp: {
    flush() { flushes += 1; },
    create(name) { const book = new Spreadsheet(name); books.push(book); return book; },
    openById(id) {
      const book = books.find(b => b.id === id);
      if (!book) throw new Error('Document ' + id + ' is missing (perhaps it was deleted, or you don\'t have read access?)');
      return book;
    },
  },
  DriveApp: {
    searchFiles(query) {
      const title = /title = "([^"]*)"/.exec(query);
      const found = books.filter(b => title && b.name === title[1]);
      let i = 0;
      return {hasNext: () => i < found.length, next: () => found[i++]};
    },
  },
  PropertiesService: {
    getScriptProperties: () => ({
      getProperty: key => (key in properties ? properties[key] : null),
      setProperty(key, value) { properties[key] = String(value); return this; },
    }),
  },
  // One script runs at a time here (Node is single-threaded and doGet/doPost are synchronous), as the lock ensures.
  LockService: {getScriptLock: () => ({tryLock: () => true, waitLock() {}, releaseLock() {}})},
  // Apps Script's cache: strings by key (at most 250 characters), kept here for the host's life.
  CacheService: {getScriptCache: () => ({
    get: key => { if (key.length > 250) throw new Error('key too long'); return scriptCache.has(key) ? scriptCache.get(key) : null; },
    put: (key, value) => { if (key.length > 250) throw new Error('key too long'); scriptCache.set(key, String(value)); },
  })},
  ContentService: {
    MimeType: {JSON: 'application/json', TEXT: 'text/plain'},
    createTextOutput(content) {
      return {content: String(content), mime: 'text/plain', setMimeType(type) { this.mime = type; return this; }};
    },
  },
  Utilities: {
    formatDate(date, zone, pattern) {
      const parts = new Intl.DateTimeFormat('en-CA', {timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit'})
        .formatToParts(date).reduce((all, p) => Object.assign(all, {[p.type]: p.value}), {});
      return pattern.replace('yyyy', parts.year).replace('MM', parts.month).replace('dd', parts.day);
    },
  },
};

const context = vm.createContext(Object.assign({}, services));
ScriptDate = vm.runInContext('Date', context);
vm.runInContext(fs.readFileSync(SCRIPT, 'utf8'), context, {filename: 'Code.gs'});

// MARK: - HTTP as Apps Script answers

const outputs = new Map();
let lostAnswers = Number(option('lose-answers', '0'));
let answersBeforeLoss = 0;  // POSTs answered before the lost ones start
let down = false;  // POST /_control/down "1": every /exec connection is dropped before the script runs, as in an outage
const calls = {GET: 0, POST: 0};

function run(handler, event) {
  try {
    const output = context[handler](event);
    return {status: 302, output};
  } catch (error) {
    // An exception the script did not catch: Apps Script's HTML error page, with 200.
    const page = '<!DOCTYPE html><html><head><title>Error</title></head><body><div>' +
      String(error && error.message || error) + ' (line 1, file "Code")</div></body></html>';
    return {status: 200, page};
  }
}

function handle(request, response) {
  const url = new URL(request.url, 'http://host');
  let body = '';
  request.on('data', chunk => { body += chunk; });
  request.on('end', () => {
    if (url.pathname === '/_control/state') {
      const state = books.map(b => ({name: b.name, flushes,
                                     sheets: b.sheets.map(s => ({name: s.name, cells: s.cells, formats: s.formats, maxRows: s.maxRows}))}));
      response.writeHead(200, {'Content-Type': 'application/json'});
      return response.end(JSON.stringify(state));
    }
    if (url.pathname === '/_control/type' && request.method === 'POST') {
      const typed = JSON.parse(body);
      const book = books.find(b => b.name === typed.book);
      book.getSheetByName(String(typed.sheet)).write(typed.row, typed.column, typed.value);
      response.writeHead(204);
      return response.end();
    }
    if (url.pathname === '/_control/format' && request.method === 'POST') {
      const asked = JSON.parse(body);
      const sheet = books.find(b => b.name === asked.book).getSheetByName(String(asked.sheet));
      sheet.formats[asked.column] = asked.format;
      response.writeHead(204);
      return response.end();
    }
    if (url.pathname === '/_control/down' && request.method === 'POST') {
      down = body.trim() === '1';
      response.writeHead(204);
      return response.end();
    }
    if (url.pathname === '/_control/lose' && request.method === 'POST') {
      const [count, after] = body.trim().split('@');
      lostAnswers = Number(count);
      answersBeforeLoss = Number(after || '0');
      response.writeHead(204);
      return response.end();
    }
    if (url.pathname === '/_control/calls') {
      response.writeHead(200, {'Content-Type': 'application/json'});
      return response.end(JSON.stringify(calls));
    }
    if (url.pathname === '/echo' && request.method === 'GET') {
      const key = url.searchParams.get('user_content_key');
      const output = outputs.get(key);
      outputs.delete(key);
      if (!output) { response.writeHead(404, {'Content-Type': 'text/html'}); return response.end('<html>not found</html>'); }
      response.writeHead(200, {'Content-Type': output.mime + '; charset=utf-8'});
      return response.end(output.content);
    }
    if (url.pathname.endsWith('/exec')) {
      if (down) return request.socket.destroy();
      calls[request.method] = (calls[request.method] || 0) + 1;
      const parameter = Object.fromEntries(url.searchParams.entries());
      const event = request.method === 'POST'
        ? {parameter, postData: {contents: body, type: request.headers['content-type'] || '', length: body.length}}
        : {parameter};
      const result = run(request.method === 'POST' ? 'doPost' : 'doGet', event);
      if (request.method === 'POST' && answersBeforeLoss > 0) {
        answersBeforeLoss -= 1;
      } else if (request.method === 'POST' && lostAnswers > 0) {
        lostAnswers -= 1;
        return request.socket.destroy();
      }
      if (result.status === 200) {
        response.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'});
        return response.end(result.page);
      }
      const key = crypto.randomBytes(12).toString('hex');
      outputs.set(key, result.output);
      // Another origin, as script.googleusercontent.com is to script.google.com: the echo server's own port.
      response.writeHead(302, {Location: 'http://127.0.0.1:' + echo.address().port + '/echo?user_content_key=' + key});
      return response.end();
    }
    response.writeHead(404, {'Content-Type': 'text/html'});
    response.end('<html>not found</html>');
  });
}

const server = http.createServer(handle);
const echo = http.createServer(handle);
echo.listen(0, '127.0.0.1', () => {
  server.listen(Number(option('port', '0')), '127.0.0.1', () => {
    process.stdout.write('PORT ' + server.address().port + '\n');
  });
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
