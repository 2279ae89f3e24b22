// One Apps Script execution at a time, on a thread of its own (host.js keeps a pool of these), so that simultaneous
// requests are simultaneous executions as in Apps Script. Each execution gets a fresh realm (a vm context): the
// script's global variables do not survive from one execution to the next, as in Apps Script.
//
// Every call of a service that reaches Google (SpreadsheetApp, Spreadsheet, Sheet, Range, DriveApp, File,
// FileIterator, PropertiesService, CacheService, LockService and their objects) is a synchronous call to the main
// thread, which holds the one copy of the spreadsheets, Drive, properties, cache and locks: the request goes on a
// MessagePort, the thread sleeps in Atomics.wait until the main thread answers, then reads the answer with
// receiveMessageOnPort. What Apps Script does locally (ContentService, Utilities.formatDate, rich text builders,
// Session) is done here and not counted.
'use strict';
const {parentPort, workerData, receiveMessageOnPort} = require('worker_threads');
const vm = require('vm');
const crypto = require('crypto');
const dates = require('./dates');

const {port, shared, source, filename, methods, zone} = workerData;
const signal = new Int32Array(shared);  // [0]: 1 when the main thread has answered; [1]: always 0, to sleep on
// Compiled once a thread, run in each execution's fresh realm; a script that does not compile fails every execution.
let script, unparsed;
try { script = new vm.Script(source, {filename}); } catch (error) { unparsed = error; }

/** A synchronous call to the main thread: its answer, or the exception it says to throw. */
function ask(request) {
  Atomics.store(signal, 0, 0);
  port.postMessage(JSON.stringify(request.body, request.replacer));
  Atomics.wait(signal, 0, 0);
  let answer;
  while (!(answer = receiveMessageOnPort(port))) Atomics.wait(signal, 1, 0, 1);
  return answer.message;
}

// The script's Date is its realm's own (a date cell's value is `instanceof Date` in the script, as in Apps Script),
// running on the execution's clock: Date.now() and new Date() include the latency the host added without sleeping.
const CLOCK = `(function (offset) {
  var Real = Date;
  var ScriptDate = function Date(year, month, day, hours, minutes, seconds, ms) {
    if (!new.target) return new Real(Real.now() + offset()).toString();
    var args = arguments.length === 0 ? [Real.now() + offset()] : Array.prototype.slice.call(arguments);
    return Reflect.construct(Real, args, new.target);
  };
  ScriptDate.prototype = Real.prototype;
  Object.defineProperty(Real.prototype, 'constructor', {value: ScriptDate, writable: true, configurable: true, enumerable: false});
  ScriptDate.now = function now() { return Real.now() + offset(); };
  ScriptDate.UTC = Real.UTC;
  ScriptDate.parse = Real.parse;
  Object.defineProperty(globalThis, 'Date', {value: ScriptDate, writable: true, configurable: true, enumerable: false});
})`;

const MIME = {ATOM: 'application/atom+xml', CSV: 'text/csv', ICAL: 'text/calendar', JAVASCRIPT: 'application/javascript',
              JSON: 'application/json', RSS: 'application/rss+xml', TEXT: 'text/plain', VCARD: 'text/vcard', XML: 'text/xml'};

function execute(job) {
  const context = vm.createContext({});
  const realm = vm.runInContext('({JSON: JSON, Date: Date, Error: Error})', context);
  const RealmDate = realm.Date;  // before the clock is installed: its dates share the script's Date.prototype
  let clock = 0;
  vm.runInContext(CLOCK, context)(() => clock);

  const handles = new WeakMap(), riches = new WeakMap(), outputs = new WeakSet();
  // What the script logs with console (Cloud Logging, shown beside the run on the Executions page).
  const logs = [];
  const logged = level => (...args) => {
    logs.push({level, message: args.map(arg => (arg && typeof arg === 'object' && 'stack' in arg ? String(arg.stack)
      : arg && typeof arg === 'object' ? JSON.stringify(arg) : String(arg))).join(' ')});
  };
  const exception = (message, name) => {
    const error = new realm.Error(message);
    error.name = name || 'Exception';
    return error;
  };
  const replacer = function (key, value) {
    const original = this[key];
    if (original !== null && typeof original === 'object') {
      if (handles.has(original)) return handles.get(original);
      if (riches.has(original)) return {$rich: riches.get(original)};
      if (Object.prototype.toString.call(original) === '[object Date]') return {$date: original.getTime()};
    }
    return value;
  };
  const reviver = (key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if ('$date' in value) return new RealmDate(value.$date);
      if ('$kind' in value) return handle(value.$kind, value.$ref);
      if ('$rich' in value) return richText(value.$rich);
    }
    return value;
  };
  function call(kind, ref, method, args) {
    const answer = ask({body: {op: 'call', kind, ref, method, args}, replacer});
    clock = answer.clock;
    if (answer.error !== undefined) throw exception(answer.error, answer.name);
    const value = answer.json === undefined ? undefined : realm.JSON.parse(answer.json, reviver);
    const files = kind === 'DriveApp' && /^(searchFiles|getFilesByName|getFiles)$/.test(method);
    return files ? iterator(value) : value;
  }
  function handle(kind, ref) {
    const object = {};
    for (const method of methods[kind]) object[method] = (...args) => call(kind, ref, method, args);
    object.toString = () => kind;
    handles.set(object, {$kind: kind, $ref: ref});
    return object;
  }
  // A FileIterator walks the files the search found; each hasNext() and next() is a call to Drive, as in Apps Script.
  function iterator(files) {
    let i = 0;
    return {
      hasNext() { call('FileIterator', null, 'hasNext', []); return i < files.length; },
      next() {
        call('FileIterator', null, 'next', []);
        if (i >= files.length) throw exception('Cannot retrieve the next object: iterator has reached the end.');
        return files[i++];
      },
      getContinuationToken() { call('FileIterator', null, 'getContinuationToken', []); return ''; },
      toString: () => 'FileIterator',
    };
  }
  function richText(text) {
    const value = {getText: () => text, copy: () => richBuilder(text), toString: () => 'RichTextValue'};
    riches.set(value, text);
    return value;
  }
  function richBuilder(text) {
    const builder = {
      setText(t) { text = String(t); return builder; },
      setTextStyle() { return builder; },
      setLinkUrl() { return builder; },
      build: () => richText(text),
      toString: () => 'RichTextValueBuilder',
    };
    return builder;
  }
  function textOutput(content) {
    let mime = MIME.TEXT;
    const output = {
      getContent: () => content, setContent(text) { content = String(text); return output; },
      append(text) { content += String(text); return output; }, clear() { content = ''; return output; },
      getMimeType: () => mime, setMimeType(type) { mime = String(type); return output; },
      downloadAsFile() { return output; }, getFileName: () => null, toString: () => 'TextOutput',
    };
    outputs.add(output);
    return output;
  }

  const services = {
    SpreadsheetApp: Object.assign(handle('SpreadsheetApp', null), {newRichTextValue: () => richBuilder('')}),
    DriveApp: handle('DriveApp', null),
    PropertiesService: handle('PropertiesService', null),
    CacheService: handle('CacheService', null),
    LockService: handle('LockService', null),
    ContentService: {
      MimeType: Object.assign({}, MIME),
      createTextOutput: content => textOutput(content === undefined ? '' : String(content)),
    },
    Utilities: {
      formatDate(date, where, pattern) {
        if (Object.prototype.toString.call(date) !== '[object Date]') {
          throw exception('The parameters (' + typeof date + ',String,String) don\'t match the method signature for Utilities.formatDate.');
        }
        try {
          return dates.simpleDateFormat(date.getTime(), String(where), String(pattern));
        } catch (error) {
          throw exception(error.message);
        }
      },
      // Sleeping advances the execution's virtual clock (counted against its time limit), without sleeping.
      sleep(ms) { const answer = ask({body: {op: 'sleep', ms: Number(ms) || 0}}); clock = answer.clock; },
      getUuid: () => crypto.randomUUID(),
      base64Encode: text => Buffer.from(String(text)).toString('base64'),
      base64Decode: text => Array.from(Buffer.from(String(text), 'base64')).map(b => (b > 127 ? b - 256 : b)),
    },
    Session: {
      getScriptTimeZone: () => zone,
      getActiveUserLocale: () => 'ja',
      getActiveUser: () => ({getEmail: () => ''}),
      getEffectiveUser: () => ({getEmail: () => 'owner@example.com'}),
    },
    Logger: {log() { return services.Logger; }},
    console: {log: logged('info'), info: logged('info'), warn: logged('warning'), error: logged('error')},
  };
  Object.assign(context, services);
  return Object.assign(run(job, context, realm, outputs), {logs});
}

function run(job, context, realm, outputs) {
  try {
    if (unparsed) throw unparsed;
    script.runInContext(context);
    const fn = vm.runInContext('typeof ' + job.handler + ' === "function" ? ' + job.handler + ' : null', context);
    if (!fn) return {outcome: 'exception', message: 'Script function not found: ' + job.handler};
    const output = fn(realm.JSON.parse(JSON.stringify(job.event)));
    if (!output) return {outcome: 'exception', message: 'The script completed but did not return anything.'};
    if (!outputs.has(output)) {
      return {outcome: 'exception', message: 'The script completed but the returned value is not a supported return type.'};
    }
    return {outcome: 'ok', output: {content: output.getContent(), mime: output.getMimeType()}};
  } catch (error) {
    return {outcome: 'exception', message: describe(error)};
  }
}

/** An uncaught exception as Apps Script's error page shows it: "TypeError: … (line 66, file "Code")". */
function describe(error) {
  if (!error || typeof error !== 'object') return String(error);
  const text = (error.name && error.name !== 'Error' ? error.name : 'Error') + ': ' + error.message;
  const line = /\bCode:(\d+)/.exec(String(error.stack || ''));
  return line ? text + ' (line ' + line[1] + ', file "Code")' : text;
}

parentPort.on('message', job => parentPort.postMessage(execute(job)));
