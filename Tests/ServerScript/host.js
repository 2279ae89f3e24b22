// Runs Resources/server/Code.gs unmodified under Node.js, behind an HTTP front end that answers as Apps Script does,
// for the tests. Standard library only. Beside it: sheets.js (Sheets and Drive as Google keeps them), cells.js (what a
// cell holds and shows: typing, formulas, display values), worker.js (one execution on a thread of its own, in a fresh
// realm), dates.js (time zones, Sheets' serial days, date patterns).
//
//   node host.js [--port N] [--key SECRET] [--zone Asia/Tokyo] [--lose-answers N] [--script FILE (another Code.gs)]
//                [--latency MS] [--latency-real] [--time-limit MS] [--lock-wait-scale F] [--max-executions N]
//       prints "PORT n", serves until stdin closes; --lose-answers N runs the first N POSTs and then drops their
//       connections, as a network does when the answer is lost after the script ran. --latency MS is the cost of
//       each call to Google (virtual unless --latency-real); --time-limit MS is an execution's limit (Apps Script's
//       6 minutes by default); --lock-wait-scale F multiplies the waits of tryLock/waitLock (0.001 makes 10 s 10 ms);
//       --max-executions N is how many executions run at once (Apps Script's 30 per user).
//
// HTTP, as script.google.com answers a web app: GET or POST /exec (or /exec/anything: the rest is e.pathInfo) runs
// doGet/doPost and answers 302 to /echo?user_content_key=… on a second port (another origin, as the redirect host is
// in real life), whose GET hands out the output once; an exception that escapes the script, or an execution Apps
// Script ends (its time limit), is Apps Script's error page with 200 text/html.
//
// Executions: each request is an execution on a worker thread of its own, so that executions overlap as Apps
// Script's do; the script lock is one lock they contend for, released when an execution ends however it ends. Every
// call of a method of SpreadsheetApp, Spreadsheet, Sheet or Range is one Sheets call; of DriveApp, File or
// FileIterator one Drive call; of PropertiesService, CacheService, LockService or their objects one "other" call.
// Each costs the latency; Utilities.sleep advances the virtual clock. An execution whose elapsed time (virtual plus
// real) passes the time limit is ended where it is: its thread is terminated (no further statement runs), what it
// wrote stays written, its lock is released and the answer is "Exceeded maximum execution time".
//
// Controls for the tests:
//   POST /_control/down "1"|"0"   drops every /exec connection unanswered while on (the server cannot be reached)
//   POST /_control/lose "n@k"     answers k POSTs, then drops the answers of n after running them (as --lose-answers)
//   GET  /_control/calls          how many scripts ran, by method
//   GET  /_control/state          every spreadsheet: name, id, trashed, deleted, flushes, and its sheets in tab order:
//                                 name, cells (as getValues), displayed (as getDisplayValues), formulas, formats (by
//                                 column), cellFormats ("row:column"), maxRows, maxColumns
//   POST /_control/type {"book","sheet","row","column","value"}   types into a cell as a person would (retyped as
//                                 Sheets retypes it)
//   POST /_control/format {"book","sheet","column","format"}     sets a column's format, as an older sheet has it
//   POST /_control/latency {"ms":N,"real":false}   each call's latency: virtual (added to the clock) or real (slept)
//   POST /_control/time-limit "MS"                 an execution's time limit from now on
//   GET  /_control/executions     the finished executions, in the order they finished: {handler, action, sheets,
//                                 drive, other, elapsedMs, outcome: "ok"|"exception"|"timeout", message}
//   POST /_control/executions "clear"             forgets them
//   POST /_control/trash {"book"}        moves the live spreadsheet of that name to Drive's trash
//   POST /_control/delete-file {"book"}  deletes it for good (the live one of that name, else the trashed one), as
//                                        Drive does 30 days after trashing
//   POST /_control/restore {"book"}      takes the trashed one of that name out of the trash
//   ("book" names a spreadsheet; {"id"} may name it instead.)
//   POST /_control/fail {"method","message","count":1,"lose":false}  the next call(s) of a method of that name
//                                        (getFormulas…) throw Exception: message, as a service failing does; the message
//                                        is what Google says in the owner's language (a Japanese owner's in Japanese).
//                                        With "lose" a failing flush also loses the writes the execution made since its
//                                        start or its last flush (Sheets had not applied them yet)
//   POST /_control/hand {"book","sheet","op":"deleteRows"|"insertRows","row","count":1,"after":METHOD}
//                                        a person deletes or inserts rows in the sheet (as in Sheets' row menu): now, or,
//                                        with "after", right after the next call of that method by any execution (so an
//                                        edit lands between two calls of a script, deterministically)
//   GET  /_control/executions also has each execution's "logs" ({level, message}: what it wrote with console)
//   POST /_control/freeze {"book","sheet","rows"}  freezes the top rows, as View › Freeze does
//   POST /_control/create {"book"}     the owner makes a spreadsheet of that name in Drive (Sheets' blank spreadsheet)
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const {Worker, MessageChannel} = require('worker_threads');
const {Google, ServiceError, stateOf, type} = require('./sheets');

const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf('--' + name); return i >= 0 ? args[i + 1] : fallback; };
const SCRIPT = option('script', path.join(__dirname, '..', '..', 'Resources', 'server', 'Code.gs'));
const ZONE = option('zone', 'Asia/Tokyo');
const LOCK_WAIT_SCALE = Number(option('lock-wait-scale', '1'));
const MAX_EXECUTIONS = Number(option('max-executions', '30'));
let latency = {ms: Number(option('latency', '0')), real: args.includes('--latency-real')};
let timeLimit = Number(option('time-limit', '360000'));

const google = new Google(ZONE);
const fail = message => { throw new ServiceError(message); };
const tag = (kind, ref) => ({$kind: kind, $ref: ref});

// MARK: - Properties, cache and locks (Google's, beside the spreadsheets)

const stores = {script: new Map(), user: new Map()};
if (option('key')) stores.script.set('EXPENSE_LOG_KEY', option('key'));
const caches = {script: new Map(), user: new Map()};
// Apps Script's cache: strings by key (at most 250 characters), values of at most 100 KB, for 10 minutes unless said,
// 6 hours at most.
const cacheKey = key => { key = String(key); if (key.length > 250) fail('Argument too large: key'); return key; };
const cached = (store, key) => {
  const entry = caches[store].get(cacheKey(key));
  if (!entry || entry.expires <= Date.now()) { caches[store].delete(key); return null; }
  return entry.value;
};
const cache = (store, key, value, seconds) => {
  value = String(value);
  if (Buffer.byteLength(value) > 100 * 1024) fail('Argument too large: value');
  const life = Math.min(Math.max(seconds === undefined ? 600 : Number(seconds), 1), 21600);
  caches[store].set(cacheKey(key), {value, expires: Date.now() + life * 1000});
};

const locks = {script: {holder: null, waiters: []}, user: {holder: null, waiters: []}};
/** Takes a lock for an execution, waiting up to `ms` (times --lock-wait-scale) behind the one holding it. */
function acquire(execution, name, ms) {
  const lock = locks[name];
  if (lock.holder === execution) return true;
  if (!lock.holder) { lock.holder = execution; return true; }
  const wait = Math.max(0, Number(ms) || 0) * LOCK_WAIT_SCALE;
  if (wait <= 0) return false;
  return new Promise(resolve => {
    const waiter = {execution, resolve};
    waiter.timer = setTimeout(() => { lock.waiters.splice(lock.waiters.indexOf(waiter), 1); resolve(false); }, wait);
    lock.waiters.push(waiter);
  });
}
function release(execution, name) {
  const lock = locks[name];
  if (lock.holder !== execution) return;
  lock.holder = null;
  const next = lock.waiters.shift();
  if (next) { clearTimeout(next.timer); lock.holder = next.execution; next.resolve(true); }
}

const OTHER = {
  PropertiesService: {
    getScriptProperties: () => tag('Properties', {store: 'script'}),
    getUserProperties: () => tag('Properties', {store: 'user'}),
    getDocumentProperties: () => null,  // a standalone script has no document
  },
  Properties: {
    getProperty: (x, ref, key) => (stores[ref.store].has(String(key)) ? stores[ref.store].get(String(key)) : null),
    setProperty: (x, ref, key, value) => { stores[ref.store].set(String(key), String(value)); return tag('Properties', ref); },
    deleteProperty: (x, ref, key) => { stores[ref.store].delete(String(key)); return tag('Properties', ref); },
    getProperties: (x, ref) => Object.fromEntries(stores[ref.store]),
    getKeys: (x, ref) => [...stores[ref.store].keys()],
    setProperties: (x, ref, properties, others) => {
      if (others) stores[ref.store].clear();
      for (const [k, v] of Object.entries(properties || {})) stores[ref.store].set(k, String(v));
      return tag('Properties', ref);
    },
    deleteAllProperties: (x, ref) => { stores[ref.store].clear(); return tag('Properties', ref); },
  },
  CacheService: {
    getScriptCache: () => tag('Cache', {store: 'script'}),
    getUserCache: () => tag('Cache', {store: 'user'}),
    getDocumentCache: () => null,
  },
  Cache: {
    get: (x, ref, key) => cached(ref.store, key),
    getAll: (x, ref, keys) => Object.fromEntries((keys || []).map(k => [k, cached(ref.store, k)]).filter(([, v]) => v !== null)),
    put: (x, ref, key, value, seconds) => { cache(ref.store, key, value, seconds); },
    putAll: (x, ref, values, seconds) => { for (const [k, v] of Object.entries(values || {})) cache(ref.store, k, v, seconds); },
    remove: (x, ref, key) => { caches[ref.store].delete(cacheKey(key)); },
    removeAll: (x, ref, keys) => { for (const k of keys || []) caches[ref.store].delete(cacheKey(k)); },
  },
  LockService: {
    getScriptLock: () => tag('Lock', {lock: 'script'}),
    getUserLock: () => tag('Lock', {lock: 'user'}),
    getDocumentLock: () => null,
  },
  Lock: {
    tryLock: (execution, ref, ms) => acquire(execution, ref.lock, ms),
    async waitLock(execution, ref, ms) {
      if (!(await acquire(execution, ref.lock, ms))) fail('Lock timeout: another process was holding the lock for too long.');
    },
    hasLock: (execution, ref) => locks[ref.lock].holder === execution,
    releaseLock: (execution, ref) => { release(execution, ref.lock); },
  },
};

const CATEGORY = {SpreadsheetApp: 'sheets', Spreadsheet: 'sheets', Sheet: 'sheets', Range: 'sheets',
                  DriveApp: 'drive', File: 'drive', FileIterator: 'drive',
                  PropertiesService: 'other', Properties: 'other', CacheService: 'other', Cache: 'other',
                  LockService: 'other', Lock: 'other'};
const METHODS = Object.fromEntries(Object.keys(CATEGORY).map(kind => [kind, Object.keys(Google.prototype[kind] || OTHER[kind])]));

// MARK: - Executions

const finished = [];  // what GET /_control/executions answers
const running = new Set();
const idle = [];
const SOURCE = fs.readFileSync(SCRIPT, 'utf8');

class Execution {
  constructor(handler, action) {
    Object.assign(this, {handler, action, counts: {sheets: 0, drive: 0, other: 0}, virtual: 0, started: performance.now(),
                         active: new Map(), ended: false, timer: null, thread: null});
  }
  elapsed() { return this.virtual + (performance.now() - this.started); }
}

function spawn() {
  const {port1, port2} = new MessageChannel();
  const shared = new SharedArrayBuffer(8);
  // The file as Apps Script names it in a stack trace: "at remove (Code:640:12)".
  const worker = new Worker(path.join(__dirname, 'worker.js'), {
    workerData: {port: port2, shared, source: SOURCE, filename: 'Code', methods: METHODS, zone: ZONE}, transferList: [port2]});
  const thread = {worker, port: port1, signal: new Int32Array(shared), execution: null, retired: false};
  port1.on('message', request => serve(thread, request));
  worker.on('message', result => {
    if (thread.execution) end(thread.execution, result.outcome, result.message, result.output, result.logs);
  });
  worker.on('error', () => {});
  worker.on('exit', () => {
    thread.retired = true;
    if (idle.includes(thread)) idle.splice(idle.indexOf(thread), 1);
    // Apps Script's own words when its side fails.
    const message = 'We\'re sorry, a server error occurred. Please wait a bit and try again.';
    if (thread.execution) end(thread.execution, 'exception', message);
  });
  return thread;
}

/** Runs doGet or doPost as an execution: {status: 302, output} or {status: 200, message} for the error page. */
function run(handler, event, action) {
  return new Promise(resolve => {
    const execution = new Execution(handler, action);
    execution.resolve = resolve;
    if (running.size >= MAX_EXECUTIONS) {
      return end(execution, 'exception', 'There are too many scripts running simultaneously for this Google user account.');
    }
    running.add(execution);
    // A flush armed to fail and lose its writes puts back what the books held when this execution began.
    if (failures.some(f => f.lose)) execution.snapshot = google.snapshot();
    const thread = idle.pop() || spawn();
    thread.execution = execution;
    execution.thread = thread;
    arm(execution);
    thread.worker.postMessage({handler, event});
  });
}

/** One call from a script: the services' work, its latency, and the time limit. */
async function serve(thread, raw) {
  const execution = thread.execution;
  if (!execution || execution.ended) return;
  const request = JSON.parse(raw);
  let answer = {};
  if (request.op === 'sleep') {
    execution.virtual += Math.max(0, request.ms);
  } else {
    const category = CATEGORY[request.kind];
    execution.counts[category] += 1;
    try {
      const failure = failures.find(f => f.method === request.method);
      if (failure && --failure.count <= 0) failures.splice(failures.indexOf(failure), 1);
      if (failure && failure.lose && request.method === 'flush' && execution.snapshot) google.restore(execution.snapshot);
      if (failure) fail(failure.message);
      const value = await (Google.prototype[request.kind]
        ? google.call(execution, request.kind, request.ref, request.method, request.args)
        : OTHER[request.kind][request.method](execution, request.ref, ...request.args));
      if (value !== undefined) answer.json = JSON.stringify(value);
      if (request.method === 'flush' && failures.some(f => f.lose)) execution.snapshot = google.snapshot();
    } catch (error) {
      answer = {error: error.message, name: error instanceof ServiceError ? 'Exception' : 'Error'};
    }
    // A person's edit set to land right after this call (POST /_control/hand with "after").
    for (const edit of handEdits.filter(e => e.after === request.method)) {
      handEdits.splice(handEdits.indexOf(edit), 1);
      try { edit.apply(); } catch (error) { /* a row the sheet no longer has: the person's edit did nothing */ }
    }
    if (latency.ms > 0) {
      if (latency.real) await new Promise(resolve => setTimeout(resolve, latency.ms));
      else execution.virtual += latency.ms;
    }
  }
  if (execution.ended) return;
  // A call that carries the execution past its limit has done its work (Sheets has no transactions); the script never
  // sees its answer.
  if (!arm(execution)) return;
  answer.clock = execution.virtual;
  thread.port.postMessage(answer);
  Atomics.store(thread.signal, 0, 1);
  Atomics.notify(thread.signal, 0);
}

/** Ends the execution if it has passed the time limit (false), else wakes up in time to end it then. */
function arm(execution) {
  clearTimeout(execution.timer);
  const left = timeLimit - execution.elapsed();
  if (left < 0) {
    end(execution, 'timeout', 'Exceeded maximum execution time');
    return false;
  }
  execution.timer = setTimeout(() => arm(execution), Math.ceil(left) + 1);
  return true;
}

function end(execution, outcome, message, output, logs) {
  if (execution.ended) return;
  // A script that returns after its time is up was ended before it could: what it returns is discarded.
  if (outcome !== 'timeout' && running.has(execution) && execution.elapsed() > timeLimit) {
    [outcome, message, output] = ['timeout', 'Exceeded maximum execution time', undefined];
  }
  execution.ended = true;
  clearTimeout(execution.timer);
  running.delete(execution);
  for (const name of Object.keys(locks)) {
    const lock = locks[name];
    for (const waiter of lock.waiters.filter(w => w.execution === execution)) {
      clearTimeout(waiter.timer);
      lock.waiters.splice(lock.waiters.indexOf(waiter), 1);
    }
    release(execution, name);
  }
  const thread = execution.thread;
  if (thread) {
    thread.execution = null;
    // No further statement of the script runs: its thread goes, mid-call or mid-loop.
    // A thread whose execution ended well serves the next one (in a fresh realm); a few are kept, ready.
    if (outcome === 'timeout') { thread.retired = true; thread.worker.terminate(); }
    else if (!thread.retired && idle.length < 4) idle.push(thread);
    else if (!thread.retired) { thread.retired = true; thread.worker.terminate(); }
  }
  const record = Object.assign({handler: execution.handler, action: execution.action}, execution.counts,
                               {elapsedMs: Math.round(execution.elapsed()), outcome});
  if (outcome !== 'ok') record.message = message;
  record.logs = logs || [];
  finished.push(record);
  execution.resolve(outcome === 'ok' ? {status: 302, output} : {status: 200, message});
}

// MARK: - HTTP as Apps Script answers

// Apps Script's error page (as Tests/ReferenceServer/server.py serves it): the message in a monospace div.
const ERROR_PAGE = '<!DOCTYPE html><html><head><link rel="shortcut icon" href="//ssl.gstatic.com/docs/script/images/favicon.ico">' +
  '<title>Error</title><style type="text/css" nonce="Xq2aBcDeFgHiJkLmNoPqRs">body {background-color: #fff; margin: 0; ' +
  'padding: 0;}.errorMessage {font-family: Arial,sans-serif; font-size: 12pt; font-weight: bold; line-height: 150%; ' +
  'padding-top: 25px;}</style></head><body style="margin:20px"><div><img alt="Google Apps Script" ' +
  'src="//ssl.gstatic.com/docs/script/images/logo.png"></div><div style="text-align:center;font-family:monospace;' +
  'margin:50px auto 0;max-width:600px">{message}</div></body></html>';
const escapeHtml = text => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

const outputs = new Map();
let lostAnswers = Number(option('lose-answers', '0'));
let answersBeforeLoss = 0;  // POSTs answered before the lost ones start
let down = false;  // POST /_control/down "1": every /exec connection is dropped before the script runs, as in an outage
const calls = {GET: 0, POST: 0};
const failures = [];  // POST /_control/fail: calls that are to fail
const handEdits = [];  // POST /_control/hand with "after": a person's edits waiting for a script's call

/** The web app's event object, as Google's reference for web apps describes it. */
function eventOf(request, url, body, pathInfo) {
  const parameters = {};
  const add = search => { for (const [k, v] of new URLSearchParams(search)) (parameters[k] = parameters[k] || []).push(v); };
  add(url.search);
  const type = String(request.headers['content-type'] || '').split(';')[0].trim();
  // A form's fields are parameters too (a JSON body sent as a form becomes a parameter named by the whole text).
  if (request.method === 'POST' && type === 'application/x-www-form-urlencoded') add(body);
  const query = url.search.slice(1);
  const parameter = Object.fromEntries(Object.entries(parameters).map(([k, values]) => [k, values[0]]));
  const event = {queryString: query === '' ? null : query, parameter, parameters, contextPath: '',
                 contentLength: request.method === 'POST' ? Buffer.byteLength(body) : -1};
  if (pathInfo) event.pathInfo = pathInfo;
  if (request.method === 'POST') event.postData = {contents: body, length: Buffer.byteLength(body), type, name: 'postData'};
  return event;
}

/** What an execution is doing, for the list of executions. */
function actionOf(method, event) {
  if (method === 'POST') {
    try {
      const body = JSON.parse(event.postData.contents);
      if (Array.isArray(body)) return 'register-array';
      if (body && typeof body.action === 'string') return body.action;
    } catch (error) { /* not JSON: the query may say */ }
  }
  if (event.parameter.action) return event.parameter.action;
  return method === 'GET' && event.parameter.year !== undefined && event.parameter.month !== undefined ? 'fetch' : null;
}

/** The spreadsheet a control names: {"id"}, or {"book"} (the live one of that name first). */
function named(asked, ...preferences) {
  if (asked.id) return google.books.find(b => b.id === asked.id);
  for (const prefer of preferences.length ? preferences : ['live', 'trashed']) {
    const found = google.books.filter(b => b.name === String(asked.book) && !b.deleted && b.trashed === (prefer === 'trashed'));
    if (found.length) return prefer === 'trashed' ? found[found.length - 1] : found[0];
  }
  return null;
}

function answerJSON(response, status, value) {
  response.writeHead(status, {'Content-Type': 'application/json'});
  response.end(JSON.stringify(value));
}

function control(request, response, url, body) {
  const name = url.pathname.slice('/_control/'.length);
  const post = request.method === 'POST';
  const json = () => JSON.parse(body);
  const done = () => { response.writeHead(204); response.end(); };
  const book = (...preferences) => {
    const found = named(json(), ...preferences);
    if (!found) throw Object.assign(new Error('no spreadsheet ' + body), {status: 404});
    return found;
  };
  const sheetOf = asked => {
    const sheet = book().sheets.find(s => s.name === String(asked.sheet));
    if (!sheet) throw Object.assign(new Error('no sheet ' + asked.sheet), {status: 404});
    return sheet;
  };
  if (name === 'state') return answerJSON(response, 200, google.books.map(b => stateOf(google, b)));
  if (name === 'calls') return answerJSON(response, 200, calls);
  if (name === 'executions' && !post) return answerJSON(response, 200, finished);
  if (!post) return answerJSON(response, 405, {error: 'POST ' + url.pathname});
  switch (name) {
    case 'executions': if (body.trim() === 'clear') finished.length = 0; return done();
    case 'type': { const typed = json(); type(sheetOf(typed), typed.row, typed.column, typed.value); return done(); }
    case 'format': {
      const asked = json();
      sheetOf(asked).formatColumn(asked.column, asked.format);
      return done();
    }
    case 'down': down = body.trim() === '1'; return done();
    case 'lose': {
      const [count, after] = body.trim().split('@');
      lostAnswers = Number(count);
      answersBeforeLoss = Number(after || '0');
      return done();
    }
    case 'fail': {
      const asked = json();
      failures.push({method: String(asked.method), message: String(asked.message), count: Number(asked.count) || 1,
                     lose: asked.lose === true});
      return done();
    }
    case 'hand': {
      const asked = json(), sheet = sheetOf(asked), count = Number(asked.count) || 1, row = Number(asked.row);
      const ref = {book: sheet.book.id, sheet: sheet.id};
      if (!['deleteRows', 'insertRows'].includes(asked.op) || !(row >= 1)) {
        throw new Error('hand needs "op": "deleteRows" or "insertRows", and a "row"');
      }
      const apply = () => (asked.op === 'deleteRows' ? google.Sheet.deleteRows.call(google, null, ref, row, count)
        : google.Sheet.insertRowsBefore.call(google, null, ref, row, count));
      if (asked.after) handEdits.push({after: String(asked.after), apply});
      else apply();
      return done();
    }
    case 'create': { google.create(String(json().book)); return done(); }
    case 'freeze': { const asked = json(); sheetOf(asked).frozenRows = Number(asked.rows) || 0; return done(); }
    case 'latency': {
      const asked = json();
      if (!(Number(asked.ms) >= 0)) throw new Error('latency needs {"ms": a number of milliseconds, "real": false|true}');
      latency = {ms: Number(asked.ms), real: asked.real === true};
      return done();
    }
    case 'time-limit': {
      const asked = JSON.parse(body.trim() || 'null');
      const limit = Number(asked && typeof asked === 'object' ? asked.ms : asked);
      if (!(limit > 0)) throw new Error('time-limit needs a number of milliseconds');
      timeLimit = limit;
      for (const execution of running) arm(execution);
      return done();
    }
    case 'trash': book('live').trashed = true; return done();
    case 'delete-file': book('live', 'trashed').deleted = true; return done();
    case 'restore': book('trashed').trashed = false; return done();
  }
  return answerJSON(response, 404, {error: 'no control ' + name});
}

function handle(request, response) {
  const url = new URL(request.url, 'http://host');
  const chunks = [];
  request.on('data', chunk => chunks.push(chunk));
  request.on('end', async () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (url.pathname.startsWith('/_control/')) {
      try {
        return control(request, response, url, body);
      } catch (error) {
        return answerJSON(response, error.status || 400, {error: error.message});
      }
    }
    if (url.pathname === '/echo' && request.method === 'GET') {
      const key = url.searchParams.get('user_content_key');
      const output = outputs.get(key);
      outputs.delete(key);
      if (!output) { response.writeHead(404, {'Content-Type': 'text/html'}); return response.end('<html>not found</html>'); }
      response.writeHead(200, {'Content-Type': output.mime + '; charset=utf-8'});
      return response.end(output.content);
    }
    const exec = /\/exec(?:\/(.*))?$/.exec(url.pathname);
    if (exec && (request.method === 'GET' || request.method === 'POST')) {
      if (down) return request.socket.destroy();
      calls[request.method] = (calls[request.method] || 0) + 1;
      // Whether this POST's answer is lost is settled in the order POSTs arrive, whatever order they finish in.
      let lose = false;
      if (request.method === 'POST' && answersBeforeLoss > 0) answersBeforeLoss -= 1;
      else if (request.method === 'POST' && lostAnswers > 0) { lostAnswers -= 1; lose = true; }
      let pathInfo = exec[1] || '';
      try { pathInfo = decodeURIComponent(pathInfo); } catch (error) { /* kept as sent */ }
      const event = eventOf(request, url, body, pathInfo);
      const result = await run(request.method === 'POST' ? 'doPost' : 'doGet', event, actionOf(request.method, event));
      if (lose) return request.socket.destroy();
      if (result.status === 200) {
        response.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'});
        return response.end(ERROR_PAGE.replace('{message}', () => escapeHtml(result.message)));
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
idle.push(spawn());  // one thread ready, so that the first request does not wait for one to start
echo.listen(0, '127.0.0.1', () => {
  server.listen(Number(option('port', '0')), '127.0.0.1', () => {
    process.stdout.write('PORT ' + server.address().port + '\n');
  });
});
process.stdin.on('end', () => process.exit(0));
// A spare host whose test run ended before it said its port finds its stdout closed: it is not needed, so it ends.
process.stdout.on('error', () => process.exit(0));
process.stdin.resume();
