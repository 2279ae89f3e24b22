/**
 * expense-log's web app: the household expense log (家計簿) in Google Sheets, for the iOS app and the expense-log
 * command-line client. Paste this file as the whole of an Apps Script project's Code.gs and deploy it as a web app
 * (`expense-log server script` prints it; the client's docs/server.md walks through the deployment, and `expense-log server
 * check` then asks the deployment to test itself on Google).
 *
 * The original protocol, unchanged:
 *   GET  ?year=2024&month=1   → the month's items: [{"id","date":"yyyyMMdd","name","price","category","categorySub"}]
 *   POST [item, …]            → the items saved, in the order sent
 * Extensions, which a client discovers with GET ?action=info:
 *   POST {"action":"register","items":[item, …]}   → {"saved":[items as stored],"existing":[ids already there]}
 *   POST {"action":"delete","items":[{"id","date"}]}  → {"deleted":[ids],"missing":[ids]}
 *   POST {"action":"update","id","date","changes":{name,price,date,category,categorySub},"was":{…}} → the item as saved
 *        ("was", optional, holds what the changed fields held: a field that now holds neither is a "conflict";
 *        "change", optional, names the change: one already made is answered, marked "already": true, and not made again)
 *   POST {"action":"adopt","id","item":{date,name,price,category,categorySub}} → the item as saved: a row a person typed
 *        into the sheet by hand has no id; the first such row of the item's month that holds exactly these cells gets
 *        "id" (again: the row that has it already is answered, marked "already": true)
 *   POST {"action":"check"}  → {"check":{…}}: the deployment's self-test on a temporary spreadsheet (see selfTest)
 *   GET  ?action=rules       → {"rules":[rule, …]}: the household's fixed costs (固定費), see "Fixed costs" below; a rule is
 *        {"id","name","price","low","high","day","month","category","categorySub","every":"month"|"year","from","until",
 *        "match":[words]} (from and until yyyy-MM or null; low and high the range a statement's amount may fall in)
 *   POST {"action":"rules","put":[rule, …],"remove":[ids]} → {"rules":[every rule after the change]}
 *   GET  ?action=settlements → {"settlements":[{"id","from","to","payer","payee","amount","ratio","recorded"}, …]}
 *   POST {"action":"settle","settlement":{…}} → {"settlements":[…]}: records what one partner paid the other (once an id)
 *   GET  ?year=2024&month=1&fields=payer → the month's items, each also with "payer" (who paid, or null: the household)
 *        and "personal" (true for one person's own spending); an item sent with "payer" or "personal" (register,
 *        update's changes) keeps them in the columns 支払者 and 個人 after the app's six, which a plain GET never answers
 * register and delete answers may carry "notices": things the owner should know (a year's spreadsheet in the trash).
 * Errors are JSON: {"error":{"kind":"…","message":"…"}} (Apps Script answers 200 whatever a script returns), and logged
 * with their stack (console.error) for the Executions page. The kind never depends on a message's wording, which
 * follows the owner's language: the script's own checks say bad-request, conflict, not-found, too-large, unauthorized
 * or busy; JavaScript's errors (TypeError…) are script, a bug; any other exception is Google's services failing,
 * unavailable, which a client retries (every write is idempotent).
 *
 * Storage: one spreadsheet per year named 家計簿_yyyy (found in Drive, else created on first use), a sheet per month
 * named 1…12 in order, with the header ID,日付,品名,金額,項目,サブ項目. The id, date and name cells are written as rich
 * text, which is text by definition: never retyped (0120 stays 0120, TRUE stays TRUE) and never a formula (a name
 * =IMPORTXML(…) is stored and read back as those characters). They are read as the sheet displays them, so a cell a
 * person typed reads as it shows (12:30 as 12:30:00, not as a date in 1899); numbers are read as numbers.
 *
 * Nothing half-written: a request is checked whole (every item, every limit of Sheets) before anything is written,
 * and refused naming the item. Registering is idempotent: under the script lock, an item whose id is already in its
 * month is not appended again (a retried POST whose first answer was lost saves nothing twice); a row a write cut
 * short left without its numbers is written again whole. An update's "change" is remembered only once it is flushed.
 *
 * Rows that move: the lock covers this script only, and reads take none. A month read as text and then as values is
 * read again when the two disagree (a delete or a move landed between them), so a read never answers mixed rows; and
 * the rows a write is about to delete or overwrite are read again just before, and the request planned again when a
 * person or another script moved them. A month that keeps moving is answered "busy", which a client retries.
 *
 * Cost: Apps Script charges time per call to Sheets and Drive (tens of milliseconds each). Every action opens each
 * book and reads each month it touches once: register and delete cost a few calls per month touched, whatever the
 * number of items (a delete one more per run of adjacent rows deleted), so a batch stays well inside the client's
 * 30 s timeout and Apps Script's 6 minutes.
 *
 * Access: if the script property EXPENSE_LOG_KEY is set (Project Settings › Script properties), every request but
 * ?action=info must carry it, as the `key` query parameter or as the path after /exec (…/exec/KEY, which the iOS
 * app keeps when it adds its query). Without the property, whoever has the /exec URL can read and write, as with the
 * original script.
 */

var HEADER = ['ID', '日付', '品名', '金額', '項目', 'サブ項目'];
// Columns the app never reads (it gets the six keys above): who paid, and whether it was one person's own.
var EXTRA_HEADER = ['支払者', '個人'];
var VERSION = 5;
var APP = {app: 'expense-log', version: VERSION,
           actions: ['info', 'fetch', 'register', 'delete', 'update', 'adopt', 'check', 'rules', 'payer', 'settle']};
// Sheets' limits (Google's "Files you can store in Google Drive"): a cell holds at most 50,000 characters, and a
// spreadsheet at most 10 million cells. A number is a double: whole numbers are kept exactly up to 2^53 - 1.
var CELL_CHARACTERS = 50000, SPREADSHEET_CELLS = 10000000;
// JavaScript's own errors: a mistake in this script. Any other exception after a request is checked comes from Google's
// services (worded in the owner's language, so never read): passing, and safe to retry, as every write is idempotent.
var SCRIPT_ERRORS = ['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError', 'EvalError', 'URIError', 'InternalError'];
// How often a month is read again when its rows moved while it was read or before it was written (a person or another
// script editing the sheet: the script lock covers this script only), before the request is answered "busy".
var READS = 3;
var LARGEST_WHOLE = 9007199254740991;
// The years a household's log can hold: a date typed without its century (00240203) or a slip of a key (20224-…) would
// otherwise make a spreadsheet of its own (家計簿_24), and one request could make one a year until the time limit.
var FIRST_YEAR = 2000, LAST_YEAR = 2100;

// What one execution has opened and has to say. Each doGet/doPost starts anew: Apps Script gives every execution fresh
// globals, but an imitation (or a future runtime) may not.
var run = fresh();

function fresh() {
  return {books: Object.create(null), zones: Object.create(null), created: Object.create(null), notices: [], locked: false,
          flushed: [], extras: false};
}

function doGet(e) {
  run = fresh();
  return answer(function () {
    var parameter = (e && e.parameter) || {};
    if (parameter.action === 'info') return APP;
    checkKey(e);
    if (parameter.action === 'rules') return noted({rules: readRules()});
    if (parameter.action === 'settlements') return withLock(function () { return noted({settlements: readSettlements()}); });
    // The app's GET answers its six keys; a client asks for who paid.
    run.extras = parameter.fields === 'payer';
    var year = whole(parameter.year, 'year', FIRST_YEAR, LAST_YEAR);
    var month = whole(parameter.month, 'month', 1, 12);
    var sheet = monthSheet(year, month, false);
    // Read without the lock (reads never wait for writes): rows a delete or a move shifts between the two reads of the
    // month are found and read again, never answered mixed.
    return sheet ? settledRead('sheet ' + month + ' of 家計簿_' + year, function () { return monthRows(sheet).items(zone(year)); }) : [];
  });
}

function doPost(e) {
  run = fresh();
  return answer(function () {
    checkKey(e);
    var text = e && e.postData ? e.postData.contents : '';
    var body;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw failure('bad-request', 'the body is not JSON: ' + error.message);
    }
    if (Array.isArray(body)) return withLock(function () { return register(body).saved; });
    var action = body && typeof body === 'object' ? body.action : undefined;
    if (action === 'register') {
      if (!Array.isArray(body.items)) throw failure('bad-request', '"items" must be an array of items');
      // Items saved with who paid are answered with it.
      run.extras = body.items.some(function (item) { return item && typeof item === 'object' && hasExtras(item); });
      return withLock(function () { return noted(register(body.items)); });
    }
    if (action === 'delete') return withLock(function () { return noted(remove(body.items)); });
    if (action === 'update') return withLock(function () { return update(body); });
    if (action === 'adopt') return withLock(function () { return adopt(body); });
    if (action === 'check') return withLock(selfTest);
    if (action === 'rules') return withLock(function () { return noted(writeRules(body.put || [], body.remove || [])); });
    if (action === 'settle') return withLock(function () { return noted(recordSettlement(body.settlement)); });
    throw failure('bad-request', 'the body must be an array of items, or an object with "action": "register", "delete", ' +
                  '"update", "adopt", "check", "rules" or "settle"');
  });
}

// MARK: - Answers and errors

function answer(work) {
  var result;
  try {
    result = work();
  } catch (error) {
    var message = String(error && error.message || error);
    // Logged with its stack, so that the Executions page shows the run's error beside it (the answer is still JSON).
    console.error(error && error.stack ? error.stack : message);
    // Google's services failing is not the request's fault: a client sends it again (what was written before stays).
    var kind = error && error.kind || (error && SCRIPT_ERRORS.indexOf(error.name) >= 0 ? 'script' : 'unavailable');
    // What the owner should know (a book in the trash) goes with an error too: it may be why the item is not found.
    if (run.notices.length) message += ' (' + run.notices.join(' ') + ')';
    result = {error: {kind: kind, message: message}};
  }
  return ContentService.createTextOutput(JSON.stringify(result)).setMimeType(ContentService.MimeType.JSON);
}

function noted(result) {
  if (run.notices.length) result.notices = run.notices;
  return result;
}

function failure(kind, message) {
  var error = new Error(message);
  error.kind = kind;
  return error;
}

function checkKey(e) {
  var expected = PropertiesService.getScriptProperties().getProperty('EXPENSE_LOG_KEY');
  if (!expected) return;
  var parameter = (e && e.parameter) || {};
  // …/exec/KEY: the iOS app replaces a base URL's query with its own, but keeps its path. Every key given must be
  // right, so a URL whose path key is wrong is not let in by a right `key` beside it (the app would be refused).
  var given = [];
  if (parameter.key !== undefined) given.push(String(parameter.key));
  if (e && typeof e.pathInfo === 'string' && e.pathInfo) given.push(e.pathInfo.split('/')[0]);
  if (!given.length) given.push('');
  var difference = 0;
  given.forEach(function (key) {
    // Compared in full whatever differs first, so the time taken tells nothing of the key.
    difference |= key.length ^ expected.length;
    for (var i = 0; i < expected.length; i++) {
      difference |= expected.charCodeAt(i) ^ (i < key.length ? key.charCodeAt(i) : 0);
    }
  });
  if (difference !== 0) throw failure('unauthorized', 'the key is missing or wrong');
}

function withLock(work) {
  var lock = LockService.getScriptLock();
  // Shorter than a client's 30 s timeout, so a busy script says so instead of leaving the client guessing.
  if (!lock.tryLock(10000)) throw failure('busy', 'another request holds the lock; try again');
  run.locked = true;
  try {
    var result;
    try {
      result = work();
    } catch (error) {
      // What was written is committed before the next request may read it (Google's advice with the lock), also when
      // the work failed after writing; the work's own error is the answer, not a failing flush's.
      try {
        SpreadsheetApp.flush();
      } catch (flushing) {
        console.error(flushing && flushing.stack ? flushing.stack : String(flushing));
      }
      throw error;
    }
    SpreadsheetApp.flush();
    // Only now is a change written: remembered as made (a retry then answered "already") once the flush held. A cache
    // that fails to remember costs a retry its "already", never the answer of a change that was made.
    run.flushed.forEach(function (remember) {
      try {
        remember();
      } catch (error) {
        console.error(error && error.stack ? error.stack : String(error));
      }
    });
    return result;
  } finally {
    lock.releaseLock();
  }
}

function whole(value, field, low, high) {
  var number = Number(value);
  if (value === undefined || value === '' || !isFinite(number) || Math.floor(number) !== number || number < low || number > high) {
    throw failure('bad-request', field + ' must be a whole number from ' + low + ' to ' + high + ', got ' + JSON.stringify(value));
  }
  return number;
}

// MARK: - Spreadsheets and sheets

/** The year's book, opened once per execution: never one in the trash or deleted, which would swallow what is written. */
function book(year, create) {
  if (year in run.books && (run.books[year] || !create)) return run.books[year];
  var properties = PropertiesService.getScriptProperties();
  var name = '家計簿_' + year;
  var remembered = properties.getProperties();
  var id = remembered['book_' + year];
  // Said on every request for the year until the owner deals with it (and deletes the property).
  if (remembered['lost_' + year] && run.notices.indexOf(remembered['lost_' + year]) < 0) run.notices.push(remembered['lost_' + year]);
  var lost = null;
  if (id) {
    lost = fileState(id, name);
    if (!lost) return (run.books[year] = SpreadsheetApp.openById(id));
    // What the script remembers changes only under the lock: a read (a GET) that raced a register could otherwise
    // forget the book the register just made. A read goes on with a live book it finds, or reads the year as empty.
    if (run.locked) properties.deleteProperty('book_' + year);
  }
  // Only a spreadsheet of one's own that is not in the trash: a shared or trashed file of the same name is not the log.
  var files = DriveApp.searchFiles('title = "' + name + '" and mimeType = "application/vnd.google-apps.spreadsheet" ' +
                                   'and trashed = false and "me" in owners');
  var spreadsheet = null;
  if (files.hasNext()) {
    spreadsheet = SpreadsheetApp.openById(files.next().getId());
  } else if (create) {
    spreadsheet = SpreadsheetApp.create(name);
    run.created[year] = true;
  }
  if (lost && run.locked) {
    var notice = name + ' (' + id + '), the spreadsheet this web app kept ' + year + ' in until ' +
        Utilities.formatDate(new Date(), Session.getScriptTimeZone(), 'yyyy-MM-dd') + ', ' + lost + ': it is no longer ' +
        'used, and what is saved for ' + year + ' goes to another ' + name + ' (made if there is none), without the items the ' +
        'old one holds. ' + (lost.indexOf('trash') >= 0 ? 'Restore it from Drive\'s trash and copy its items over (or use it ' +
        'again: rename or remove the other), then' : 'Its items are gone with it unless a copy is kept elsewhere;') +
        ' delete the script property lost_' + year + ' (Project Settings › Script properties) to end this notice.';
    properties.setProperty('lost_' + year, notice);
    run.notices.push(notice);
  }
  if (spreadsheet && run.locked) properties.setProperty('book_' + year, spreadsheet.getId());
  return (run.books[year] = spreadsheet);
}

/**
 * Why a remembered book cannot be used ("is in Drive's trash", "was deleted from Drive"), or null when it can. Told
 * apart by what Drive lists, never by the wording of an error (Google words it in the owner's language): a file Drive
 * no longer lists under its name, in the trash or out, is gone; any other failure is thrown, so that a passing fault
 * of Drive's is never taken for a deletion (a new book would split the year).
 */
function fileState(id, name) {
  try {
    return DriveApp.getFileById(id).isTrashed() ? 'is in Drive\'s trash' : null;
  } catch (error) {
    var files = DriveApp.searchFiles('title = "' + name + '" and "me" in owners');
    while (files.hasNext()) {
      var file = files.next();
      if (file.getId() === id) return file.isTrashed() ? 'is in Drive\'s trash' : null;
    }
    return 'was deleted from Drive';
  }
}

/** The time zone of a year's book (which reads date cells), asked once. */
function zone(year) {
  return run.zones[year] || (run.zones[year] = book(year, false).getSpreadsheetTimeZone());
}

/** A month's sheet (made, in month order, when `create`), or null. */
function monthSheet(year, month, create) {
  var spreadsheet = book(year, create);
  if (!spreadsheet) return null;
  var name = String(month);
  var sheet = spreadsheet.getSheetByName(name);
  if (sheet || !create) return sheet;
  if (run.created[year]) {
    // A new spreadsheet's only sheet (シート1) becomes the first month, rather than stay behind empty.
    sheet = spreadsheet.getSheets()[0];
    sheet.setName(name);
    run.created[year] = false;
  } else {
    var sheets = spreadsheet.getSheets(), index = 0;
    for (var i = 0; i < sheets.length; i++) {
      var other = sheets[i].getName();
      if (/^\d+$/.test(other) && Number(other) < month) index = i + 1;
    }
    // A new sheet has 1000 rows of 26 columns.
    sheet = growing(spreadsheet, 'a sheet', 26000, function () { return spreadsheet.insertSheet(name, index); });
  }
  // Text columns stay text when a person types into them too.
  sheet.getRange('A:C').setNumberFormat('@');
  return sheet;
}

/**
 * A month as read once: its last row, the row of each id (as displayed), and its items; two calls for the text as
 * displayed, one more for the values when items are wanted, whatever the number of rows. The values are read after the
 * text: when their text cells differ from it (rows moved in between), `item` throws `moved`, and the month is read again.
 */
function monthRows(sheet) {
  var range = sheet.getDataRange();
  var shown = range.getDisplayValues();
  var empty = shown.length === 1 && shown[0].every(function (cell) { return cell === ''; });
  var rows = {sheet: sheet, shown: shown, last: empty ? 0 : shown.length, ids: Object.create(null), all: Object.create(null),
              orphans: []};
  for (var i = 1; i < rows.last; i++) {
    var id = shown[i][0];
    if (id === '') {
      if (orphan(shown[i])) rows.orphans.push(i + 1);
      continue;  // a row typed by hand without an id is no item any request can name
    }
    if (!(id in rows.ids)) {
      rows.ids[id] = i + 1;
      rows.all[id] = [];
    }
    rows.all[id].push(i + 1);  // an id a person copied onto another row: a delete removes every copy
  }
  var values = null;
  /** The item on a (1-based) row. */
  rows.item = function (row, where) {
    if (!values) {
      values = range.getValues();
      if (!agree(shown, values)) throw moved();
    }
    return item(values[row - 1], shown[row - 1], where);
  };
  /** Every item below the header; a row cleared by hand is no item. */
  rows.items = function (where) {
    var items = [];
    for (var row = 2; row <= rows.last; row++) {
      if (shown[row - 1].every(function (cell) { return cell === ''; })) continue;
      items.push(rows.item(row, where));
    }
    return items;
  };
  return rows;
}

/**
 * A row an earlier version of this script left when Google failed between its two writes (the numbers, then the id,
 * date and name): numbers and nothing else. No request can name it and no person typed it so; it is free space.
 */
function orphan(cells) {
  return cells[0] === '' && cells[1] === '' && cells[2] === '' && cells.length > 4 && cells[3] !== '' && cells[4] !== '';
}

/** Whether two reads of the same range saw the same rows: each text cell (id, date, name) holds what was displayed. */
function agree(shown, values) {
  return shown.length === values.length && values.every(function (cells, r) {
    for (var c = 0; c < 3 && c < cells.length; c++) {
      if (typeof cells[c] === 'string' && cells[c] !== shown[r][c]) return false;
    }
    return true;
  });
}

function moved() {
  var error = new Error('the rows moved while they were read');
  error.moved = true;
  return error;
}

/** Reads with `read` again while the rows move under it; answers "busy" (a client retries) rather than mixed rows. */
function settledRead(what, read) {
  for (var attempt = 1; ; attempt++) {
    try {
      return read();
    } catch (error) {
      if (!error.moved) throw error;
      if (attempt >= READS) throw busyMoving(what);
    }
  }
}

function busyMoving(what) {
  return failure('busy', 'the rows of ' + what + ' moved ' + READS + ' times while this request read them (someone is ' +
                 'editing the sheet); nothing more was written: try again');
}

/**
 * Writes what a plan found to write, once the rows it read are still where it read them. Rows found earlier are not
 * trusted when written: a person, or another script, may have deleted or inserted rows since, and a delete or an
 * update would then hit another item. `plan()` reads and says {checks: [[rows, top, bottom]…], write, answer}; each
 * check reads the rows top…bottom again (one call) and compares them with the plan's read. When they moved, the
 * month is read and planned again (READS times at most).
 */
function settled(what, plan) {
  for (var attempt = 1; attempt <= READS; attempt++) {
    var step = settledRead(what, plan);
    var still = (step.checks || []).every(function (check) { return unmoved(check[0], check[1], check[2]); });
    if (still) {
      if (step.write) step.write();
      return step.answer;
    }
  }
  throw busyMoving(what);
}

/** Whether rows top…bottom (1-based, within the sheet) still display what `rows` read there, the first six columns. */
function unmoved(rows, top, bottom) {
  var now = rows.sheet.getRange(top, 1, bottom - top + 1, HEADER.length).getDisplayValues();
  return now.every(function (cells, i) {
    var before = rows.shown[top + i - 1] || [];
    var blank = top + i > rows.last;
    return cells.every(function (cell, c) { return cell === (blank || c >= before.length ? '' : before[c]); });
  });
}

// MARK: - Rows and items

function item(cells, shown, where) {
  // A data range narrower than the header (no sub-category anywhere) leaves the last cells out.
  var cell = function (index) { return index < cells.length ? cells[index] : ''; };
  var text = function (index) { return index < shown.length ? shown[index] : ''; };
  var date = cell(1);
  var result = {
    id: text(0),
    // A date cell as its day, whatever its display format; a time typed by hand (a Date in 1899) as it shows.
    date: date instanceof Date && Utilities.formatDate(date, where, 'yyyy') !== '1899'
        ? Utilities.formatDate(date, where, 'yyyyMMdd') : dayText(text(1)),
    name: text(2),
    // A blank cell is no number: null, so that a client names the row instead of reading 0.
    price: number(cell(3)),
    category: number(cell(4)),
    categorySub: number(cell(5))
  };
  if (run.extras) {
    result.payer = text(6) === '' ? null : text(6);
    // true: one person's own; false: said to be shared (over a category a client's configuration calls personal);
    // null: unsaid.
    var said = String(text(7)).trim().toLowerCase();
    result.personal = PERSONAL.indexOf(said) >= 0 ? true : SHARED.indexOf(said) >= 0 ? false : null;
  }
  return result;
}

// What the 個人 column holds for one person's own spending (written as 個人; typed by a person in other words).
var PERSONAL = ['個人', 'personal', 'true', '1', '○', '✓', 'yes'];
var SHARED = ['共有', 'shared', 'false', '0', 'no'];

/** A date typed by hand as text (2024/1/7, 2024-01-07, 2024.1.7) as the wire's yyyyMMdd; other text as it is. */
function dayText(text) {
  var parts = /^(\d{4})[\/.-](\d{1,2})[\/.-](\d{1,2})$/.exec(String(text).trim());
  if (!parts) return String(text);
  return parts[1] + ('0' + parts[2]).slice(-2) + ('0' + parts[3]).slice(-2);
}

function number(cell) {
  return cell === '' || cell === null || cell === undefined ? null : Number(cell);
}

/**
 * Writes items from row `start`: the text columns as rich text, the numbers as values. Google's reference says a
 * string written with setValue(s) that begins with "=" is a formula, and does not say that the plain-text format
 * prevents it; a rich text value is text, never evaluated, so a name cannot make the sheet fetch a URL.
 */
function writeRows(sheet, start, rows, numbersFirst) {
  var texts = function () {
    sheet.getRange(start, 1, rows.length, 3).setNumberFormat('@').setRichTextValues(rows.map(function (cells) { return cells.slice(0, 3).map(rich); }));
  };
  var numbers = function () { sheet.getRange(start, 4, rows.length, 3).setValues(rows.map(function (cells) { return cells.slice(3, 6); })); };
  // Who paid, as text (a name 0120 stays 0120), when a row carries it; a row without it (a header of six) writes none.
  var extras = rows.some(function (cells) { return cells.length > 6; });
  var payers = function () {
    sheet.getRange(start, 7, rows.length, 2).setNumberFormat('@').setRichTextValues(rows.map(function (cells) {
      return [rich(cells.length > 6 ? cells[6] : ''), rich(cells.length > 7 ? cells[7] : '')];
    }));
  };
  // The id, date and name first: a write cut short between the two calls leaves a row that names its item, which the
  // request's retry finds without its numbers and writes again whole (register's redo). The other order left numbers
  // without an id: a row no request could name, after which every read of the month was refused. Over a row of
  // numbers only (an older version's leftover), the numbers first: the text first would give the new id the old
  // numbers until the second call, and a cut there would leave the item saved at another price.
  if (numbersFirst) {
    numbers();
    texts();
  } else {
    texts();
    numbers();
  }
  if (extras) payers();
}

/** An item's cells in the header's order. */
function row(item) {
  var cells = [item.id, item.date, item.name, item.price, item.category,
               item.categorySub === null || item.categorySub === undefined ? '' : item.categorySub];
  // Who paid goes only where a client said: the app's items leave the two columns as they are.
  if (hasExtras(item)) {
    cells.push(item.payer === null || item.payer === undefined ? '' : item.payer,
               item.personal === true ? '個人' : item.personal === false ? '共有' : '');
  }
  return cells;
}

function hasExtras(item) {
  return item.payer !== undefined || item.personal !== undefined;
}

function rich(text) {
  return SpreadsheetApp.newRichTextValue().setText(String(text)).build();
}

/** Makes room for `count` more rows after `last` (a sheet has 1000 rows until rows are inserted). */
function makeRoom(sheet, last, count) {
  var rows = sheet.getMaxRows(), needed = last + count - rows;
  if (needed > 0) {
    growing(sheet.getParent(), needed + ' rows', needed * sheet.getMaxColumns(), function () { sheet.insertRowsAfter(rows, needed); });
  }
}

/**
 * Runs work that grows a spreadsheet by `cells`, turning Sheets' refusal at its cell limit into one that says nothing
 * was saved. Told by counting the cells when the work fails, not by the wording (Google's is in the owner's language).
 */
function growing(spreadsheet, what, cells, work) {
  try {
    return work();
  } catch (error) {
    var used = spreadsheet.getSheets().reduce(function (sum, sheet) { return sum + sheet.getMaxRows() * sheet.getMaxColumns(); }, 0);
    if (used + cells <= SPREADSHEET_CELLS) throw error;
    throw failure('too-large', spreadsheet.getName() + ' cannot grow by ' + what + ': it has ' + used + ' cells, and ' +
                  'Sheets keeps at most ' + SPREADSHEET_CELLS + ' in a spreadsheet (' + String(error && error.message || error) +
                  '). Nothing of this request was saved; move older months to another spreadsheet, or send fewer items.');
  }
}

function checked(item, index) {
  var place = 'item ' + (index + 1);
  if (!item || typeof item !== 'object') throw failure('bad-request', place + ' is not an object');
  if (typeof item.id !== 'string' || item.id === '') throw failure('bad-request', place + ': id must be a non-empty string');
  place += ' (id ' + JSON.stringify(item.id.length > 40 ? item.id.slice(0, 40) + '…' : item.id) + ')';
  ['id', 'name'].forEach(function (field) {
    if (typeof item[field] === 'string' && item[field].length > CELL_CHARACTERS) {
      throw failure('too-large', place + ': the ' + field + ' has ' + item[field].length + ' characters, more than the ' +
                    CELL_CHARACTERS + ' a Sheets cell holds');
    }
  });
  if (!realDay(item.date)) {
    throw failure('bad-request', place + ': date must be a real day as yyyyMMdd, in the years ' + FIRST_YEAR + ' to ' + LAST_YEAR);
  }
  if (typeof item.name !== 'string' || item.name === '') throw failure('bad-request', place + ': name must be a non-empty string');
  if (!wholeNumber(item.price)) throw failure('bad-request', place + ': price must be a whole number of yen Sheets keeps exactly');
  if (!wholeNumber(item.category) || item.category < 0) throw failure('bad-request', place + ': category must be a whole number');
  var sub = item.categorySub;
  if (sub !== null && sub !== undefined && (!wholeNumber(sub) || sub < 0)) {
    throw failure('bad-request', place + ': categorySub must be a whole number or null');
  }
  if (item.payer !== undefined && item.payer !== null && (typeof item.payer !== 'string' || item.payer.length > CELL_CHARACTERS)) {
    throw failure('bad-request', place + ': payer must be a name (text) or null');
  }
  if (item.personal !== undefined && item.personal !== null && typeof item.personal !== 'boolean') {
    throw failure('bad-request', place + ': personal must be true, false (shared) or null');
  }
  return item;
}

function wholeNumber(value) {
  return typeof value === 'number' && Math.floor(value) === value && Math.abs(value) <= LARGEST_WHOLE;
}

/** Checks a whole request before anything is written: every item, and each id once. */
function checkedAll(items) {
  var seen = Object.create(null);
  items.forEach(function (item, index) {
    checked(item, index);
    if (item.id in seen) {
      throw failure('bad-request', 'items ' + (seen[item.id] + 1) + ' and ' + (index + 1) + ' have the same id ' +
                    JSON.stringify(item.id) + ': an id names one item');
    }
    seen[item.id] = index;
  });
  return items;
}

function realDay(date) {
  var text = String(date);
  if (!/^\d{8}$/.test(text)) return false;
  var year = Number(text.slice(0, 4)), month = Number(text.slice(4, 6)), day = Number(text.slice(6, 8));
  var last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return year >= FIRST_YEAR && year <= LAST_YEAR && month >= 1 && month <= 12 && day >= 1 && day <= last;
}

function yearMonth(date) {
  var text = String(date);
  return {year: Number(text.slice(0, 4)), month: Number(text.slice(4, 6))};
}

/** Items (or targets) by month, in the order their months first appear. */
function byMonth(list) {
  var groups = [], index = Object.create(null);
  list.forEach(function (entry) {
    var key = String(entry.date).slice(0, 6);
    if (!(key in index)) {
      index[key] = groups.length;
      var when = yearMonth(key + '01');
      groups.push({year: when.year, month: when.month, entries: []});
    }
    groups[index[key]].entries.push(entry);
  });
  return groups;
}

// MARK: - Register, delete, update

function register(items) {
  checkedAll(items);
  var groups = byMonth(items);
  // Every month is read and given room before the first item is written, so a refusal leaves nothing half-saved.
  var plans = groups.map(function (group) { return settledRead(monthName(group), function () { return registering(group); }); });
  var stored = Object.create(null), existing = [];
  groups.forEach(function (group, index) {
    var first = plans[index];
    var plan = settled(monthName(group), function () {
      var step = first || registering(group);
      first = null;
      return step;
    });
    Object.keys(plan.stored).forEach(function (id) { stored[id] = plan.stored[id]; });
    existing = existing.concat(plan.existing);
  });
  return {saved: items.map(function (sent) { return stored[sent.id] || sent; }), existing: existing};
}

function monthName(group) {
  return 'sheet ' + group.month + ' of 家計簿_' + group.year;
}

/** What registering a month's items writes: rows to write again whole, free rows to fill, and rows to append. */
function registering(group) {
  var rows = monthRows(monthSheet(group.year, group.month, true));
  var answer = {stored: Object.create(null), existing: []};
  var fresh = [], redo = [];
  group.entries.forEach(function (sent) {
    if (!(sent.id in rows.ids)) return fresh.push(sent);
    var held = rows.item(rows.ids[sent.id], zone(group.year));
    if (held.price === null || held.category === null) {
      // A row a write cut short left without its numbers: written again whole.
      return redo.push({at: rows.ids[sent.id], cells: row(sent)});
    }
    // Already there (a retried POST): answered as the sheet holds it, not as sent this time.
    answer.stored[sent.id] = held;
    answer.existing.push(sent.id);
  });
  // Rows an older version of this script left with numbers only take the first new items.
  rows.orphans.slice(0, fresh.length).forEach(function (at) { redo.push({at: at, cells: row(fresh.shift()), numbersFirst: true}); });
  // A header the same cut left without its last three cells is written again too.
  var header = rows.last > 0 ? rows.shown[0] : HEADER;
  if (header[0] === HEADER[0] && HEADER.some(function (name, c) { return (header[c] || '') === ''; })) {
    redo.push({at: 1, cells: HEADER});
  }
  // A sheet made or cleared by hand gets its header first, in the same write, so that no item is taken for one.
  var extras = fresh.some(hasExtras);
  // Items with a payer name the two columns in the header (an older sheet's six-column header gets them too).
  if (extras && rows.last > 0 && header[0] === HEADER[0] && (header[6] || '') === '') {
    redo.push({at: 1, cells: HEADER.concat(EXTRA_HEADER)});
  }
  var lines = (rows.last === 0 ? [extras ? HEADER.concat(EXTRA_HEADER) : HEADER] : []).concat(fresh.map(row));
  if (lines.length) makeRoom(rows.sheet, rows.last, lines.length);
  var touched = redo.map(function (again) { return again.at; });
  // Appending is checked from the last row read: a row deleted above it or added below it moved the end.
  if (lines.length) touched.push(Math.max(rows.last, 1), rows.last + lines.length);
  return {
    checks: touched.length ? [[rows, Math.min.apply(null, touched), Math.max.apply(null, touched)]] : [],
    write: function () {
      redo.forEach(function (again) { writeRows(rows.sheet, again.at, [again.cells], again.numbersFirst); });
      if (lines.length) writeRows(rows.sheet, rows.last + 1, lines);
    },
    answer: answer
  };
}

function remove(targets) {
  if (!Array.isArray(targets)) throw failure('bad-request', '"items" must be an array of {"id", "date"}');
  targets.forEach(function (target, index) {
    if (!target || typeof target.id !== 'string' || target.id === '' || !realDay(target.date)) {
      throw failure('bad-request', 'item ' + (index + 1) + ' must have an id and a yyyyMMdd date');
    }
  });
  // Each month named is searched for the ids named under it; an id is answered once: deleted when some month had it
  // (every copy goes), missing when none did.
  var found = Object.create(null);
  byMonth(targets).forEach(function (group) {
    settled(monthName(group), function () {
      var sheet = monthSheet(group.year, group.month, false);
      var month = sheet ? monthRows(sheet) : {last: 0, all: Object.create(null)};
      var rows = [], ids = [];
      group.entries.forEach(function (target) {
        if (!(target.id in month.all) || ids.indexOf(target.id) >= 0) return;
        ids.push(target.id);
        rows = rows.concat(month.all[target.id]);
      });
      var answer = {ids: ids};
      if (!rows.length) return {answer: answer};
      return {checks: [[month, Math.min.apply(null, rows), Math.max.apply(null, rows)]],
              write: function () { deleteRuns(sheet, rows); }, answer: answer};
    }).ids.forEach(function (id) { found[id] = true; });
  });
  var deleted = [], missing = [], answered = Object.create(null);
  targets.forEach(function (target) {
    if (target.id in answered) return;
    answered[target.id] = true;
    (target.id in found ? deleted : missing).push(target.id);
  });
  return {deleted: deleted, missing: missing};
}

/** Deletes rows in runs of adjacent rows, bottom-up, so each call leaves the rows still to delete where they were. */
function deleteRuns(sheet, rows) {
  rows = rows.slice().sort(function (a, b) { return b - a; });
  // Sheets refuses to delete every row of a sheet, or every row below its frozen ones (a person freezes the header,
  // or more): a sheet left without one keeps a blank row. The frozen rows are asked only when few rows would be left.
  var most = sheet.getMaxRows(), left = most - rows.length;
  if (left <= 1 || (left <= 20 && left <= sheet.getFrozenRows())) sheet.insertRowsAfter(most, 1);
  var i = 0;
  while (i < rows.length) {
    var end = rows[i], start = end;
    while (i + 1 < rows.length && rows[i + 1] === start - 1) start = rows[++i];
    sheet.deleteRows(start, end - start + 1);
    i++;
  }
}

function update(body) {
  // Read with who paid, so that an item moved to another month keeps it.
  run.extras = true;
  if (typeof body.id !== 'string' || body.id === '' || !realDay(body.date) || !body.changes || typeof body.changes !== 'object') {
    throw failure('bad-request', 'an update needs "id", its current "date" (yyyyMMdd) and "changes"');
  }
  // A change already made (a retry, or a first try that ran late after its retry): answered, never made again.
  var done = typeof body.change === 'string' && body.change ? 'change:' + body.change.slice(0, 200) : null;
  var cache = done ? CacheService.getScriptCache() : null;
  var already = cache && cache.get(done);
  return settled('item ' + body.id, function () {
    var found = located(body);
    var current = found.rows.item(found.at, zone(found.when.year));
    if (already) {
      current.already = true;  // so that a client does not take a later change's values for a wrong answer
      return {answer: current};
    }
    conflicts(current, body);
    var changed = {};
    Object.keys(current).forEach(function (key) { changed[key] = current[key]; });
    ['name', 'price', 'date', 'category', 'categorySub', 'payer', 'personal'].forEach(function (key) {
      if (Object.prototype.hasOwnProperty.call(body.changes, key)) changed[key] = body.changes[key];
    });
    checked(changed, 0);
    // Remembered once written and flushed: a change whose flush failed is made again by its retry.
    var remember = function () { if (cache) run.flushed.push(function () { cache.put(done, '1', 21600); }); };
    if (String(changed.date).slice(0, 6) === found.date.slice(0, 6)) {
      // Who paid is written only when it changes: the other columns cost a Sheets call less each.
      var cells = hasExtras(body.changes) ? row(changed) : row(changed).slice(0, 6);
      return {checks: [[found.rows, found.at, found.at]], answer: changed,
              write: function () { writeRows(found.rows.sheet, found.at, [cells]); remember(); }};
    }
    // Another month: the item moves to that month's sheet, written there before it leaves this one.
    var target = yearMonth(changed.date);
    var there = monthRows(monthSheet(target.year, target.month, true));
    var at = there.ids[changed.id];
    var header = hasExtras(changed) ? HEADER.concat(EXTRA_HEADER) : HEADER;
    var lines = at ? [row(changed)] : (there.last === 0 ? [header] : []).concat([row(changed)]);
    if (!at) makeRoom(there.sheet, there.last, lines.length);
    var top = at || Math.max(there.last, 1), bottom = at || there.last + lines.length;
    return {checks: [[there, top, bottom], [found.rows, found.at, found.at]], answer: changed, write: function () {
      writeRows(there.sheet, at || there.last + 1, lines);
      deleteRuns(found.rows.sheet, [found.at]);
      remember();
    }};
  });
}

/** Where an update's item is: in the month of its "date", or already in its new month (a retry whose answer was lost). */
function located(body) {
  var places = [body.date].concat(realDay(body.changes.date) ? [body.changes.date] : []);
  for (var i = 0; i < places.length; i++) {
    var when = yearMonth(places[i]);
    var sheet = monthSheet(when.year, when.month, false);
    var rows = sheet ? monthRows(sheet) : null;
    if (rows && body.id in rows.ids) return {rows: rows, at: rows.ids[body.id], when: when, date: String(places[i])};
  }
  throw failure('not-found', 'no item ' + body.id + ' in ' + String(body.date).slice(0, 4) + '-' + String(body.date).slice(4, 6));
}

/**
 * Gives a row typed by hand (no id) the id a client made for it: the first row of the month without an id whose cells
 * read as `body.item` does. A retry finds the id already there and answers that row.
 */
function adopt(body) {
  var wanted = body.item;
  if (typeof body.id !== 'string' || body.id === '' || !wanted || typeof wanted !== 'object' || !realDay(wanted.date)) {
    throw failure('bad-request', 'an adopt needs "id" and the row\'s "item" as read (its "date" yyyyMMdd)');
  }
  var when = yearMonth(wanted.date);
  return settled('item ' + body.id, function () {
    var sheet = monthSheet(when.year, when.month, false);
    var rows = sheet ? monthRows(sheet) : null;
    if (rows && body.id in rows.ids) {
      var again = rows.item(rows.ids[body.id], zone(when.year));
      again.already = true;
      return {answer: again};
    }
    for (var at = 2; rows && at <= rows.last; at++) {
      var found = rows.item(at, zone(when.year));
      if (found.id !== '') continue;
      var same = ['date', 'name', 'price', 'category', 'categorySub'].every(function (key) {
        var value = wanted[key] === undefined ? null : wanted[key];
        return found[key] === value;
      });
      if (!same) continue;
      var where = at;
      found.id = body.id;
      return {checks: [[rows, where, where]], answer: found,
              write: function () { sheet.getRange(where, 1).setRichTextValue(rich(body.id)); }};
    }
    throw failure('not-found', 'no row without an id in ' + String(wanted.date).slice(0, 4) + '-' + String(wanted.date).slice(4, 6) +
                  ' holds ' + JSON.stringify(wanted));
  });
}

// An update may say what each field it changes held when the change was made ("was"). A field that now holds neither
// that nor the new value was changed by someone else since (or by a later change this one arrives after, if it ran
// late): the update is refused rather than undo it. A field already at its new value is a retry, and is fine.
function conflicts(current, body) {
  var was = body.was;
  if (!was || typeof was !== 'object') return;
  var differing = Object.keys(was).filter(function (key) {
    if (!Object.prototype.hasOwnProperty.call(body.changes, key)) return false;
    var now = current[key] === undefined ? null : current[key];
    return now !== was[key] && now !== body.changes[key];
  });
  if (differing.length) {
    throw failure('conflict', 'item ' + body.id + ' changed on the server since: ' + differing.map(function (key) {
      return key + ' is ' + JSON.stringify(current[key]) + ', not ' + JSON.stringify(was[key]);
    }).join(', '));
  }
}

// MARK: - Fixed costs (固定費)

/*
 * The household's fixed costs live in a spreadsheet of their own, 家計簿_固定費 (found and remembered as a year's book
 * is), on its sheet 固定費: a rule a row, which a person may also edit in Sheets. The app never sees it (it reads months
 * only), and month reads never touch it. The text columns (ID, 名前; 周期, 開始, 終了, 照合語) are written as rich text,
 * the numbers as numbers. Read as the sheet displays it, so a price typed as ¥85,000 reads as 85000; a row that cannot
 * be read is left as it is and named in "notices"; a row typed without an ID gets one the first time the rules are
 * read (under the lock). Rules are few: a write reads the sheet once, then writes each rule's row (3 calls) or deletes
 * it. A person editing the sheet during a write is not guarded against as months are (rows moved between the read and
 * the write): the rules sheet is edited by hand rarely, and a wrong row shows at once in `recurring list`.
 */
var RULES_BOOK = '固定費', RULES_SHEET = '固定費';
var RULE_HEADER = ['ID', '名前', '金額', '下限', '上限', '日', '月', '項目', 'サブ項目', '周期', '開始', '終了', '照合語'];

/** The rules' sheet (made, with its header, when `create`), or null. */
function rulesSheet(create) {
  var spreadsheet = book(RULES_BOOK, create);
  if (!spreadsheet) return null;
  var sheet = spreadsheet.getSheetByName(RULES_SHEET);
  if (sheet || !create) return sheet;
  if (run.created[RULES_BOOK]) {
    sheet = spreadsheet.getSheets()[0];
    sheet.setName(RULES_SHEET);
    run.created[RULES_BOOK] = false;
  } else {
    sheet = spreadsheet.insertSheet(RULES_SHEET, 0);
  }
  return formatRules(sheet);
}

/** A new rules sheet's text columns and header (also the self-test's). */
function formatRules(sheet) {
  sheet.getRange('A:B').setNumberFormat('@');
  sheet.getRange('J:M').setNumberFormat('@');
  writeRuleRow(sheet, 1, RULE_HEADER);
  return sheet;
}

/**
 * The rules as the sheet shows them. Read under the lock (rules are read rarely): a spreadsheet in the trash is then
 * said in "notices" (not answered as no rules), and a row typed without an ID, or a copy of another row (Sheets copies
 * its ID), gets an ID of its own first.
 */
function readRules() {
  return withLock(function () {
    var sheet = rulesSheet(false);
    return sheet ? namedRules(sheet).rules : [];
  });
}

/** The sheet's rules once every readable row has an ID of its own (under the lock). */
function namedRules(sheet) {
  var read = ruleRows(sheet);
  if (!read.unnamed.length) return read;
  // An ID as the client makes them (uppercase), and the month it was first read as its first month, so that a client
  // never posts it for months before it was typed.
  var month = Utilities.formatDate(new Date(), Session.getScriptTimeZone(), 'yyyy-MM');
  read.unnamed.forEach(function (at) {
    sheet.getRange(at, 1).setRichTextValue(rich(Utilities.getUuid().toUpperCase()));
    if (String(sheet.getRange(at, 11).getDisplayValue()).trim() === '') sheet.getRange(at, 11).setRichTextValue(rich(month));
  });
  return ruleRows(sheet);
}

/**
 * The sheet's rules, the row of each ID (an unreadable row's too, so that a write replaces it rather than add a second
 * row of that ID), and the rows of readable rules that need an ID: none yet, or another row's (a copy).
 */
function ruleRows(sheet) {
  var shown = sheet.getDataRange().getDisplayValues();
  var result = {rules: [], rows: Object.create(null), last: shown.length, unnamed: []};
  for (var i = 1; i < shown.length; i++) {
    var cells = shown[i];
    if (cells.every(function (cell) { return String(cell).trim() === ''; })) continue;
    var rule;
    try {
      rule = ruleOf(cells);
    } catch (error) {
      if (!error.kind) throw error;
      var shownID = String(cells[0]).trim();
      if (shownID !== '' && !(shownID in result.rows)) result.rows[shownID] = i + 1;
      var notice = 'row ' + (i + 1) + ' of sheet ' + RULES_SHEET + ' in 家計簿_' + RULES_BOOK + ' is left out: ' + error.message;
      // The sheet is read more than once in some requests: each row is said once.
      if (run.notices.indexOf(notice) < 0) run.notices.push(notice);
      continue;
    }
    if (rule.id === '' || rule.id in result.rows) {
      result.unnamed.push(i + 1);
      continue;
    }
    result.rules.push(rule);
    result.rows[rule.id] = i + 1;
  }
  return result;
}

/** A rule from a row's displayed cells; a cell that cannot be read throws bad-request naming its column. */
function ruleOf(cells) {
  var text = function (index) { return String(index < cells.length ? cells[index] : '').trim(); };
  var count = function (index, low, high, optional, what) {
    var shown = text(index).replace(/[０-９]/g, function (digit) { return String.fromCharCode(digit.charCodeAt(0) - 0xFEE0); })
        .replace(/[¥￥,，\s円]/g, '').replace(/^[−－]/, '-');
    if (shown === '' && optional) return null;
    var value = Number(shown);
    if (shown === '' || !isFinite(value) || Math.floor(value) !== value || value < low || value > high) {
      throw failure('bad-request', RULE_HEADER[index] + ' must be ' + (what || 'a whole number from ' + low + ' to ' + high) +
                    ', not ' + JSON.stringify(text(index)));
    }
    return value;
  };
  var month = function (index) {
    var shown = text(index);
    if (shown === '') return null;
    var parts = /^(\d{4})[-\/.年](\d{1,2})/.exec(shown);
    if (!parts || Number(parts[2]) < 1 || Number(parts[2]) > 12) {
      throw failure('bad-request', RULE_HEADER[index] + ' must be a month such as 2027-01, not ' + JSON.stringify(shown));
    }
    return parts[1] + '-' + ('0' + parts[2]).slice(-2);
  };
  var every = text(9);
  if (['', 'month', '毎月'].indexOf(every) >= 0) every = 'month';
  else if (['year', '毎年'].indexOf(every) >= 0) every = 'year';
  else throw failure('bad-request', '周期 must be 毎月 or 毎年, not ' + JSON.stringify(every));
  var name = text(1);
  if (name === '') throw failure('bad-request', '名前 is empty');
  return {
    id: text(0), name: name, price: count(2, -LARGEST_WHOLE, LARGEST_WHOLE),
    low: count(3, -LARGEST_WHOLE, LARGEST_WHOLE, true), high: count(4, -LARGEST_WHOLE, LARGEST_WHOLE, true),
    day: count(5, 1, 31), month: count(6, 1, 12, every === 'month'), category: count(7, 0, LARGEST_WHOLE, false, 'the category\'s number (0 食費, 1 娯楽費)'),
    categorySub: count(8, 0, LARGEST_WHOLE, true), every: every, from: month(10), until: month(11),
    match: text(12).split(/[\s,、，]+/).filter(function (word) { return word !== ''; })
  };
}

/** A rule's cells in RULE_HEADER's order. */
function ruleCells(rule) {
  var blank = function (value) { return value === null || value === undefined ? '' : value; };
  return [rule.id, rule.name, rule.price, blank(rule.low), blank(rule.high), rule.day, blank(rule.month), rule.category,
          blank(rule.categorySub), rule.every === 'year' ? '毎年' : '毎月', blank(rule.from), blank(rule.until),
          (rule.match || []).join(' ')];
}

/** Writes one row of RULE_HEADER's columns: the text as rich text (never a formula, never retyped), numbers as numbers. */
function writeRuleRow(sheet, at, cells) {
  sheet.getRange(at, 1, 1, 2).setRichTextValues([cells.slice(0, 2).map(rich)]);
  sheet.getRange(at, 3, 1, 7).setValues([cells.slice(2, 9)]);
  sheet.getRange(at, 10, 1, 4).setRichTextValues([cells.slice(9).map(rich)]);
}

/** A rule sent by a client, checked whole before anything is written. */
function checkedRule(rule, index) {
  var place = 'rule ' + (index + 1);
  if (!rule || typeof rule !== 'object') throw failure('bad-request', place + ' is not an object');
  if (typeof rule.id !== 'string' || rule.id === '') throw failure('bad-request', place + ': id must be a non-empty string');
  if (typeof rule.name !== 'string' || rule.name.trim() === '') {
    throw failure('bad-request', place + ': name must be a non-empty string');
  }
  ['id', 'name'].forEach(function (field) {
    if (rule[field].length > CELL_CHARACTERS) throw failure('too-large', place + ': the ' + field + ' is too long for a cell');
  });
  ['price', 'category'].forEach(function (field) {
    if (!wholeNumber(rule[field])) throw failure('bad-request', place + ': ' + field + ' must be a whole number');
  });
  ['low', 'high', 'month', 'categorySub'].forEach(function (field) {
    if (rule[field] !== null && rule[field] !== undefined && !wholeNumber(rule[field])) {
      throw failure('bad-request', place + ': ' + field + ' must be a whole number or null');
    }
  });
  if (!wholeNumber(rule.day) || rule.day < 1 || rule.day > 31) throw failure('bad-request', place + ': day must be 1 to 31');
  if (rule.category < 0 || (rule.categorySub !== null && rule.categorySub !== undefined && rule.categorySub < 0)) {
    throw failure('bad-request', place + ': a category is 0 or more');
  }
  if (rule.every === 'year' && !(rule.month >= 1 && rule.month <= 12)) {
    throw failure('bad-request', place + ': a yearly rule\'s month must be 1 to 12');
  }
  if (rule.every !== 'month' && rule.every !== 'year') throw failure('bad-request', place + ': every must be "month" or "year"');
  ['from', 'until'].forEach(function (field) {
    if (rule[field] !== null && rule[field] !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(rule[field])) {
      throw failure('bad-request', place + ': ' + field + ' must be a month as yyyy-MM or null');
    }
  });
  if (rule.match !== undefined &&
      (!Array.isArray(rule.match) || rule.match.some(function (word) { return typeof word !== 'string'; }))) {
    throw failure('bad-request', place + ': match must be an array of strings');
  }
  return rule;
}

/** Adds or replaces the rules `put` (by id) and deletes those named in `remove`; answers every rule after. */
function writeRules(put, remove) {
  if (!Array.isArray(put) || !Array.isArray(remove)) throw failure('bad-request', '"put" and "remove" must be arrays');
  put.forEach(checkedRule);
  var sheet = rulesSheet(true), read = namedRules(sheet), end = read.last;
  put.forEach(function (rule) { writeRuleRow(sheet, rule.id in read.rows ? read.rows[rule.id] : ++end, ruleCells(rule)); });
  // From the bottom up, so that the rows above keep their numbers.
  remove.map(function (id) { return read.rows[String(id)]; }).filter(Boolean)
      .sort(function (a, b) { return b - a; }).forEach(function (at) { sheet.deleteRow(at); });
  return {rules: ruleRows(sheet).rules};
}

// MARK: - Settling up (精算)

/*
 * What partners settled, so that the next `settle` of a period counts it: a spreadsheet of its own, 家計簿_精算 (found
 * and remembered as a year's book is), on its sheet 精算, a settlement a row. Not an item: it is no spending, and the
 * app's months never show it. Written under the lock, once per ID (a retried POST adds nothing).
 */
var SETTLE_BOOK = '精算', SETTLE_SHEET = '精算';
var SETTLE_HEADER = ['ID', '開始', '終了', '支払う人', '受け取る人', '金額', '比率', '記録日時'];

/** The settlements' sheet (made, with its header, when `create`), or null. */
function settlementSheet(create) {
  var spreadsheet = book(SETTLE_BOOK, create);
  if (!spreadsheet) return null;
  var sheet = spreadsheet.getSheetByName(SETTLE_SHEET);
  if (sheet || !create) return sheet;
  if (run.created[SETTLE_BOOK]) {
    sheet = spreadsheet.getSheets()[0];
    sheet.setName(SETTLE_SHEET);
    run.created[SETTLE_BOOK] = false;
  } else {
    sheet = spreadsheet.insertSheet(SETTLE_SHEET, 0);
  }
  sheet.getRange('A:E').setNumberFormat('@');
  sheet.getRange('G:H').setNumberFormat('@');
  writeSettlementRow(sheet, 1, SETTLE_HEADER);
  return sheet;
}

/** Writes a settlement's row: the texts as rich text, the amount as a number. */
function writeSettlementRow(sheet, at, cells) {
  sheet.getRange(at, 1, 1, 5).setRichTextValues([cells.slice(0, 5).map(rich)]);
  sheet.getRange(at, 6).setValue(cells[5]);
  sheet.getRange(at, 7, 1, 2).setRichTextValues([cells.slice(6).map(rich)]);
}

/** Every settlement recorded; a row that cannot be read is named in "notices" and left out. */
function readSettlements() {
  var sheet = settlementSheet(false);
  if (!sheet) return [];
  var shown = sheet.getDataRange().getDisplayValues(), settlements = [];
  for (var i = 1; i < shown.length; i++) {
    var cells = shown[i];
    if (cells.every(function (cell) { return String(cell).trim() === ''; })) continue;
    var amount = Number(String(cells[5]).replace(/[¥￥,，\s円]/g, ''));
    var month = /^\d{4}-\d{2}-\d{2}$/;
    if (!cells[0] || !month.test(cells[1]) || !month.test(cells[2]) || !cells[3] || !cells[4] || !isFinite(amount) ||
        Math.floor(amount) !== amount) {
      var notice = 'row ' + (i + 1) + ' of sheet ' + SETTLE_SHEET + ' in 家計簿_' + SETTLE_BOOK + ' is left out: it is not ' +
          'a settlement (ID, 開始 and 終了 as yyyy-MM-dd, two names, a whole 金額)';
      if (run.notices.indexOf(notice) < 0) run.notices.push(notice);
      continue;
    }
    settlements.push({id: cells[0], from: cells[1], to: cells[2], payer: cells[3], payee: cells[4], amount: amount,
                      ratio: cells[6], recorded: cells[7]});
  }
  return settlements;
}

/** Records a settlement once (by its ID); answers every settlement after. */
function recordSettlement(settlement) {
  var s = settlement;
  var day = /^\d{4}-\d{2}-\d{2}$/;
  if (!s || typeof s !== 'object' || typeof s.id !== 'string' || s.id === '' || !day.test(s.from) || !day.test(s.to) ||
      typeof s.payer !== 'string' || s.payer === '' || typeof s.payee !== 'string' || s.payee === '' ||
      !wholeNumber(s.amount) || s.amount < 0) {
    throw failure('bad-request', 'a settlement needs "id", "from" and "to" (yyyy-MM-dd), "payer", "payee" and a whole ' +
                  '"amount" of 0 or more');
  }
  var sheet = settlementSheet(true);
  var known = readSettlements().some(function (recorded) { return recorded.id === s.id; });
  if (!known) {
    var last = sheet.getLastRow();
    writeSettlementRow(sheet, last + 1, [s.id, s.from, s.to, s.payer, s.payee, s.amount, String(s.ratio || ''),
                                         String(s.recorded || '')]);
  }
  return {settlements: readSettlements()};
}

// MARK: - The deployment's self-test

/**
 * What the client's docs promise, tried on Google itself: in a temporary spreadsheet of the owner's (moved to the
 * trash at the end, also when a step fails), the hazards are written as the script writes items, read back as a client
 * reads them, and the actions timed at this deployment's latency. Answers every step with what held.
 */
var CHECK_NAME = /^expense-log check \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function selfTest() {
  var began = Date.now();
  var name = 'expense-log check ' + Utilities.formatDate(new Date(), Session.getScriptTimeZone(), 'yyyy-MM-dd HH:mm:ss');
  // A check Apps Script ended (its time limit) could not trash its spreadsheet: the next one does.
  var leftovers = DriveApp.searchFiles('title contains "expense-log check " and mimeType = "application/vnd.google-apps.spreadsheet" ' +
                                       'and trashed = false and "me" in owners');
  var cleaned = 0;
  while (leftovers.hasNext()) {
    var leftover = leftovers.next();
    // Drive's "contains" matches words, not the whole name: only a name exactly as a check makes it is a check's.
    if (!CHECK_NAME.test(leftover.getName())) continue;
    leftover.setTrashed(true);
    cleaned++;
  }
  var spreadsheet = SpreadsheetApp.create(name);
  var report = {version: VERSION, spreadsheet: name, steps: [], timings: [], removed: false, leftovers: cleaned};
  try {
    checkBooks(report);
    checkOn(spreadsheet.getSheets()[0], report);
    checkRules(spreadsheet.insertSheet(RULES_SHEET), report);
  } catch (error) {
    report.error = String(error && error.message || error);
  } finally {
    try {
      DriveApp.getFileById(spreadsheet.getId()).setTrashed(true);
      report.removed = true;
    } catch (error) {
      report.removedError = String(error && error.message || error);
    }
  }
  report.seconds = (Date.now() - began) / 1000;
  return {check: report};
}

/** Each year's spreadsheet the script remembers is live: one in the trash or deleted is replaced at its next use. */
function checkBooks(report) {
  var remembered = PropertiesService.getScriptProperties().getProperties();
  Object.keys(remembered).filter(function (key) { return /^lost_(\d+|固定費|精算)$/.test(key); }).sort().forEach(function (key) {
    report.steps.push({what: 'the items of ' + key.slice(5) + ' are all in the 家計簿_' + key.slice(5) + ' in use', ok: false,
                       detail: remembered[key], about: 'books'});
  });
  Object.keys(remembered).filter(function (key) { return /^book_(\d+|固定費|精算)$/.test(key); }).sort().forEach(function (key) {
    var year = key.slice(5), lost = fileState(remembered[key], '家計簿_' + year);
    report.steps.push({what: '家計簿_' + year + ' is live in Drive', ok: !lost, about: 'books',
                       detail: lost ? 'it ' + lost + ': the next request for ' + year + ' uses another 家計簿_' + year +
                       ' or makes one; restore it from the trash to go on with it' : ''});
  });
}

function checkOn(sheet, report) {
  function step(what, ok, detail) { report.steps.push({what: what, ok: !!ok, detail: detail || ''}); }
  function timed(action, items, work) {
    var began = Date.now();
    var result = work();
    report.timings.push({action: action, items: items, seconds: (Date.now() - began) / 1000});
    return result;
  }
  var where = sheet.getParent().getSpreadsheetTimeZone();
  sheet.setName('1');
  sheet.getRange('A:C').setNumberFormat('@');
  writeRows(sheet, 1, [HEADER]);
  var began = Date.now();
  for (var i = 0; i < 5; i++) sheet.getLastRow();
  report.callSeconds = (Date.now() - began) / 5000;

  var long = new Array(CELL_CHARACTERS + 1).join('長');
  var hazards = [
    {what: 'a name 0120 stays 0120', name: '0120'},
    {what: 'a name TRUE stays TRUE', name: 'TRUE'},
    {what: 'a name 12:30 stays 12:30', name: '12:30'},
    {what: 'a name 2024/2/3 stays 2024/2/3', name: '2024/2/3'},
    {what: 'a name =1+1 stays text, never a formula', name: '=1+1'},
    {what: 'a name +81 stays +81', name: '+81'},
    {what: 'a name -1 stays -1', name: '-1'},
    {what: 'a name @x stays @x', name: '@x'},
    {what: 'a name \'quoted keeps its apostrophe', name: '\'quoted'},
    {what: 'an id 00123 stays 00123', id: '00123', name: 'id'},
    {what: 'a refund of -300 yen with a sub-category', name: '返品', price: -300, categorySub: 1},
    {what: 'a name of ' + CELL_CHARACTERS + ' characters is kept whole', name: long}
  ];
  // The longest batch the client sends (500 items), in one write.
  var items = [];
  for (var n = 0; n < 500; n++) {
    var hazard = hazards[n] || {name: '品目' + n};
    items.push({id: hazard.id || 'CHECK-' + n, date: '20240203', name: hazard.name, price: hazard.price || 100 + n,
                category: 0, categorySub: hazard.categorySub === undefined ? null : hazard.categorySub});
  }
  checkedAll(items);
  timed('register', items.length, function () {
    var rows = monthRows(sheet);
    makeRoom(sheet, rows.last, items.length);
    writeRows(sheet, rows.last + 1, items.map(row));
  });
  var read = timed('fetch', items.length, function () { return monthRows(sheet).items(where); });
  var byId = Object.create(null);
  read.forEach(function (item) { byId[item.id] = item; });
  items.forEach(function (sent, index) {
    var back = byId[sent.id];
    var same = back && ['id', 'date', 'name', 'price', 'category', 'categorySub'].every(function (key) { return back[key] === sent[key]; });
    if (index < hazards.length) {
      step(hazards[index].what, same, same ? '' : 'read back as ' + clip(JSON.stringify(back || null)));
    } else if (!same) {
      step('item ' + (index + 1) + ' of the batch reads back as sent', false, 'read back as ' + clip(JSON.stringify(back || null)));
    }
  });
  step('all ' + items.length + ' items of the longest batch read back', read.length === items.length,
       read.length + ' items read');
  var formulas = sheet.getRange(2, 1, items.length, 3).getFormulas().filter(function (cells) {
    return cells.some(function (cell) { return cell !== ''; });
  });
  step('no text cell became a formula', formulas.length === 0, formulas.length ? formulas.length + ' cells hold formulas' : '');

  var refused = null;
  try {
    checkedAll([{id: 'TOO-LONG', date: '20240203', name: long + '長', price: 1, category: 0, categorySub: null}]);
  } catch (error) {
    refused = error;
  }
  step('a name over ' + CELL_CHARACTERS + ' characters is refused before anything is written',
       refused && refused.kind === 'too-large' && sheet.getLastRow() === items.length + 1, refused ? refused.message : 'not refused');

  var changed = {id: 'CHECK-20', date: '20240203', name: '=HYPERLINK("x")', price: 1234, category: 1, categorySub: 2};
  timed('update', 1, function () { writeRows(sheet, monthRows(sheet).ids['CHECK-20'], [row(changed)]); });
  var after = monthRows(sheet).items(where).filter(function (item) { return item.id === 'CHECK-20'; })[0];
  step('an edit is read back as made', after && after.name === changed.name && after.price === 1234,
       after ? '' : 'the item is gone');

  // The client's delete batch: runs of adjacent rows and scattered rows.
  var doomed = [];
  for (var k = 100; k < 180; k++) doomed.push('CHECK-' + k);
  for (var j = 200; j < 400; j += 10) doomed.push('CHECK-' + j);
  timed('delete', doomed.length, function () {
    var ids = monthRows(sheet).ids;
    deleteRuns(sheet, doomed.map(function (id) { return ids[id]; }));
  });
  var left = monthRows(sheet).ids;
  var gone = doomed.filter(function (id) { return !(id in left); }).length;
  var kept = items.filter(function (item) { return doomed.indexOf(item.id) < 0 && item.id in left; }).length;
  step('a delete removes exactly the ids asked', gone === doomed.length && kept === items.length - doomed.length,
       gone + ' of ' + doomed.length + ' deleted, ' + kept + ' of ' + (items.length - doomed.length) + ' others kept');
}

/** A fixed cost's row is read back as written, and one typed as a person types it (¥38,000, 毎年) reads as meant. */
function checkRules(sheet, report) {
  function step(what, ok, detail) { report.steps.push({what: what, ok: !!ok, detail: detail || ''}); }
  formatRules(sheet);
  var rule = {id: 'CHECK-RULE', name: '=家賃', price: 85000, low: 80000, high: 90000, day: 31, month: null, category: 1,
              categorySub: null, every: 'month', from: '2027-01', until: null, match: ['ﾔﾏﾀﾞ', '0120']};
  writeRuleRow(sheet, 2, ruleCells(checkedRule(rule, 0)));
  sheet.getRange(3, 1, 1, 10).setValues([['CHECK-TYPED', '自動車保険', '¥38,000', '', '', 1, 4, 1, '', '毎年']]);
  var read = ruleRows(sheet).rules;
  var back = read[0] || {};
  step('a fixed cost is read back as written (a name =家賃 stays text, 2027-01 stays a month)',
       JSON.stringify(back) === JSON.stringify(rule), 'read back as ' + clip(JSON.stringify(back)));
  var typed = read[1] || {};
  step('a fixed cost typed by hand (¥38,000, 毎年) reads as 38000 yearly',
       typed.price === 38000 && typed.every === 'year' && typed.month === 4,
       'read back as ' + clip(JSON.stringify(typed)));
}

function clip(text) {
  return text.length > 120 ? text.slice(0, 120) + '…' : text;
}
