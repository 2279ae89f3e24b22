/**
 * expense-log's web app: the household expense log (家計簿) in Google Sheets, for the iOS app and the expense-log
 * command-line client. Paste this file as the whole of an Apps Script project's Code.gs and deploy it as a web app
 * (`expense-log server script` prints it; the client's README walks through the deployment).
 *
 * The original protocol, unchanged:
 *   GET  ?year=2024&month=1   → the month's items: [{"id","date":"yyyyMMdd","name","price","category","categorySub"}]
 *   POST [item, …]            → the items saved, in the order sent
 * Extensions, which a client discovers with GET ?action=info:
 *   POST {"action":"register","items":[item, …]}               → {"saved":[items as stored],"existing":[ids already there]}
 *   POST {"action":"delete","items":[{"id","date"}]}              → {"deleted":[ids],"missing":[ids]}
 *   POST {"action":"update","id","date","changes":{name,price,date,category,categorySub},"was":{…}} → the item as saved
 *        ("was", optional, holds what the changed fields held: a field that now holds neither is a "conflict";
 *        "change", optional, names the change: one already made is answered and not made again)
 * Errors are JSON: {"error":{"kind":"…","message":"…"}} (Apps Script answers 200 whatever a script returns).
 *
 * Storage: one spreadsheet per year named 家計簿_yyyy (found in Drive, else created on first use), a sheet per month
 * named 1…12 with the header ID,日付,品名,金額,項目,サブ項目. The id, date and name columns are plain text, so the
 * sheet never retypes what is written (0120 stays 0120, TRUE stays TRUE); reads turn any cell into the wire's types.
 *
 * Registering is idempotent: under the script lock, an item whose id is already in its month is not appended again
 * (a retried POST whose first answer was lost saves nothing twice); the register action's answer names those ids.
 *
 * Access: if the script property EXPENSE_LOG_KEY is set (Project Settings › Script properties), every request must
 * carry it as the `key` query parameter; the client sends its token so and never prints it. Without the property,
 * whoever has the /exec URL can read and write, as with the original script.
 */

var HEADER = ['ID', '日付', '品名', '金額', '項目', 'サブ項目'];
var APP = {app: 'expense-log', version: 1, actions: ['info', 'fetch', 'register', 'delete', 'update']};

function doGet(e) {
  return answer(function () {
    var parameter = (e && e.parameter) || {};
    if (parameter.action === 'info') return APP;
    checkKey(parameter);
    var year = whole(parameter.year, 'year', 1, 9999);
    var month = whole(parameter.month, 'month', 1, 12);
    var sheet = monthSheet(year, month, false);
    return sheet ? readItems(sheet) : [];
  });
}

function doPost(e) {
  return answer(function () {
    checkKey((e && e.parameter) || {});
    var text = e && e.postData ? e.postData.contents : '';
    var body;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw failure('bad-request', 'the body is not JSON: ' + error.message);
    }
    if (Array.isArray(body)) return withLock(function () { return register(body).saved; });
    if (body && body.action === 'register') {
      if (!Array.isArray(body.items)) throw failure('bad-request', '"items" must be an array of items');
      return withLock(function () { return register(body.items); });
    }
    if (body && body.action === 'delete') return withLock(function () { return remove(body.items); });
    if (body && body.action === 'update') return withLock(function () { return update(body); });
    throw failure('bad-request', 'the body must be an array of items, or an object with "action": "register", "delete" or "update"');
  });
}

// MARK: - Answers and errors

function answer(work) {
  var result;
  try {
    result = work();
  } catch (error) {
    result = {error: {kind: error.kind || 'script', message: String(error.message || error)}};
  }
  return ContentService.createTextOutput(JSON.stringify(result)).setMimeType(ContentService.MimeType.JSON);
}

function failure(kind, message) {
  var error = new Error(message);
  error.kind = kind;
  return error;
}

function checkKey(parameter) {
  var expected = PropertiesService.getScriptProperties().getProperty('EXPENSE_LOG_KEY');
  if (!expected) return;
  var given = String(parameter.key || '');
  // Compared in full whatever differs first, so the time taken tells nothing of the key.
  var difference = given.length ^ expected.length;
  for (var i = 0; i < expected.length; i++) {
    difference |= expected.charCodeAt(i) ^ (i < given.length ? given.charCodeAt(i) : 0);
  }
  if (difference !== 0) throw failure('unauthorized', 'the key is missing or wrong');
}

function withLock(work) {
  var lock = LockService.getScriptLock();
  // Shorter than a client's 30 s timeout, so a busy script says so instead of leaving the client guessing.
  if (!lock.tryLock(10000)) throw failure('busy', 'another request holds the lock; try again');
  try {
    var result = work();
    // Written rows are committed before the next request may read them (Google's advice with the lock).
    SpreadsheetApp.flush();
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

function book(year, create) {
  var properties = PropertiesService.getScriptProperties();
  var name = '家計簿_' + year;
  var id = properties.getProperty('book_' + year);
  if (id) return SpreadsheetApp.openById(id);
  // Only a spreadsheet of one's own that is not in the trash: a shared or trashed file of the same name is not the log.
  var files = DriveApp.searchFiles('title = "' + name + '" and mimeType = "application/vnd.google-apps.spreadsheet" ' +
                                   'and trashed = false and "me" in owners');
  if (files.hasNext()) {
    id = files.next().getId();
  } else if (create) {
    id = SpreadsheetApp.create(name).getId();
  } else {
    return null;
  }
  properties.setProperty('book_' + year, id);
  return SpreadsheetApp.openById(id);
}

function monthSheet(year, month, create) {
  var spreadsheet = book(year, create);
  if (!spreadsheet) return null;
  var sheet = spreadsheet.getSheetByName(String(month));
  if (!sheet && !create) return null;
  if (!sheet) {
    sheet = spreadsheet.insertSheet(String(month));
    // Text columns stay text: what is written is what is read back.
    sheet.getRange('A:C').setNumberFormat('@');
  }
  // A sheet made or cleared by hand gets its header first, so that no item is taken for one.
  if (create && sheet.getLastRow() === 0) sheet.getRange(1, 1, 1, HEADER.length).setNumberFormat('@').setValues([HEADER]);
  return sheet;
}

/** Rewrites a row, as plain text in the id, date and name columns even on a row the original app wrote. */
function overwrite(sheet, at, item) {
  sheet.getRange(at, 1, 1, 3).setNumberFormat('@');
  sheet.getRange(at, 1, 1, HEADER.length).setValues([row(item)]);
}

/** Appends rows, as plain text in the id, date and name columns even on a sheet the original app made. */
function append(sheet, rows) {
  var start = sheet.getLastRow() + 1;
  var needed = start + rows.length - 1 - sheet.getMaxRows();
  if (needed > 0) sheet.insertRowsAfter(sheet.getMaxRows(), needed);
  sheet.getRange(start, 1, rows.length, 3).setNumberFormat('@');
  sheet.getRange(start, 1, rows.length, HEADER.length).setValues(rows);
}

// MARK: - Rows and items

function readItems(sheet) {
  var zone = sheet.getParent().getSpreadsheetTimeZone();
  var values = sheet.getDataRange().getValues();
  var items = [];
  for (var row = 1; row < values.length; row++) {
    var cells = values[row];
    if (cells.every(function (cell) { return cell === '' || cell === null; })) continue;
    items.push(item(cells, zone));
  }
  return items;
}

function item(cells, zone) {
  return {
    id: text(cells[0], zone),
    date: cells[1] instanceof Date ? Utilities.formatDate(cells[1], zone, 'yyyyMMdd') : dayText(text(cells[1], zone)),
    name: text(cells[2], zone),
    // A blank cell is no number: null, so that a client names the row instead of reading 0.
    price: number(cells[3]),
    category: number(cells[4]),
    categorySub: number(cells[5])
  };
}

/** A date typed by hand as text (2024/1/7, 2024-01-07, 2024.1.7) as the wire's yyyyMMdd; other text as it is. */
function dayText(text) {
  var parts = /^(\d{4})[\/.-](\d{1,2})[\/.-](\d{1,2})$/.exec(text.trim());
  if (!parts) return text;
  return parts[1] + ('0' + parts[2]).slice(-2) + ('0' + parts[3]).slice(-2);
}

function number(cell) {
  return cell === '' || cell === null || cell === undefined ? null : Number(cell);
}

/** A cell as the text a person sees in it (a date typed into a text column of an older sheet as yyyy/MM/dd). */
function text(cell, zone) {
  if (cell === true) return 'TRUE';
  if (cell === false) return 'FALSE';
  if (cell instanceof Date) return Utilities.formatDate(cell, zone, 'yyyy/MM/dd');
  return cell === null || cell === undefined ? '' : String(cell);
}

function row(item) {
  return [String(item.id), String(item.date), String(item.name), item.price, item.category,
          item.categorySub === null || item.categorySub === undefined ? '' : item.categorySub];
}

function checked(item, index) {
  var place = 'item ' + (index + 1);
  if (!item || typeof item !== 'object') throw failure('bad-request', place + ' is not an object');
  if (typeof item.id !== 'string' || item.id === '') throw failure('bad-request', place + ': id must be a non-empty string');
  if (!realDay(item.date)) throw failure('bad-request', place + ': date must be a real day as yyyyMMdd');
  if (typeof item.name !== 'string' || item.name === '') throw failure('bad-request', place + ': name must be a non-empty string');
  if (typeof item.price !== 'number' || Math.floor(item.price) !== item.price) throw failure('bad-request', place + ': price must be a whole number');
  if (typeof item.category !== 'number' || Math.floor(item.category) !== item.category || item.category < 0) {
    throw failure('bad-request', place + ': category must be a whole number');
  }
  var sub = item.categorySub;
  if (sub !== null && sub !== undefined && (typeof sub !== 'number' || Math.floor(sub) !== sub || sub < 0)) {
    throw failure('bad-request', place + ': categorySub must be a whole number or null');
  }
  return item;
}

function realDay(date) {
  var text = String(date);
  if (!/^\d{8}$/.test(text)) return false;
  var year = Number(text.slice(0, 4)), month = Number(text.slice(4, 6)), day = Number(text.slice(6, 8));
  var last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= last;
}

function yearMonth(date) {
  var text = String(date);
  return {year: Number(text.slice(0, 4)), month: Number(text.slice(4, 6))};
}

/** The rows of a month by id (1-based sheet row numbers), read once. */
function rowsById(sheet) {
  var ids = {};
  var last = sheet.getLastRow();
  if (last < 2) return ids;
  var values = sheet.getRange(2, 1, last - 1, 1).getValues();
  for (var i = 0; i < values.length; i++) ids[text(values[i][0])] = i + 2;
  return ids;
}

// MARK: - Register, delete, update

function register(items) {
  items.forEach(checked);
  var byMonth = {};
  items.forEach(function (item) {
    var key = String(item.date).slice(0, 6);
    (byMonth[key] = byMonth[key] || []).push(item);
  });
  var stored = {}, existing = [];
  Object.keys(byMonth).forEach(function (key) {
    var when = yearMonth(key + '01');
    var sheet = monthSheet(when.year, when.month, true);
    var zone = sheet.getParent().getSpreadsheetTimeZone();
    var present = rowsById(sheet);
    var fresh = byMonth[key].filter(function (sent) {
      if (present[sent.id] === true) return false;  // twice in this very request
      if (present[sent.id]) {
        // Already there (a retried POST): answered as the sheet holds it, not as sent this time.
        if (!stored[sent.id]) {
          stored[sent.id] = item(sheet.getRange(present[sent.id], 1, 1, HEADER.length).getValues()[0], zone);
          existing.push(sent.id);
        }
        return false;
      }
      present[sent.id] = true;
      return true;
    });
    if (fresh.length) append(sheet, fresh.map(row));
  });
  return {saved: items.map(function (sent) { return stored[sent.id] || sent; }), existing: existing};
}

function remove(targets) {
  if (!Array.isArray(targets)) throw failure('bad-request', '"items" must be an array of {"id", "date"}');
  var deleted = [], missing = [];
  targets.forEach(function (target, index) {
    if (!target || typeof target.id !== 'string' || !realDay(target.date)) {
      throw failure('bad-request', 'item ' + (index + 1) + ' must have an id and a yyyyMMdd date');
    }
    var when = yearMonth(target.date);
    var sheet = monthSheet(when.year, when.month, false);
    var at = sheet ? rowsById(sheet)[target.id] : undefined;
    if (at) {
      sheet.deleteRow(at);
      deleted.push(target.id);
    } else {
      missing.push(target.id);
    }
  });
  return {deleted: deleted, missing: missing};
}

function update(body) {
  if (typeof body.id !== 'string' || !realDay(body.date) || !body.changes || typeof body.changes !== 'object') {
    throw failure('bad-request', 'an update needs "id", its current "date" (yyyyMMdd) and "changes"');
  }
  var when = yearMonth(body.date);
  var sheet = monthSheet(when.year, when.month, false);
  var at = sheet ? rowsById(sheet)[body.id] : undefined;
  if (!at && realDay(body.changes.date)) {
    // Already moved by this very update, whose answer was lost: it is found in its new month and changed there.
    var moved = yearMonth(body.changes.date);
    sheet = monthSheet(moved.year, moved.month, false);
    at = sheet ? rowsById(sheet)[body.id] : undefined;
    if (at) body.date = body.changes.date;
  }
  if (!at) throw failure('not-found', 'no item ' + body.id + ' in ' + String(body.date).slice(0, 4) + '-' + String(body.date).slice(4, 6));
  var zone = sheet.getParent().getSpreadsheetTimeZone();
  var current = item(sheet.getRange(at, 1, 1, HEADER.length).getValues()[0], zone);
  // A change already made (a retry, or a first try that ran late after its retry): answered, never made again.
  var done = typeof body.change === 'string' && body.change ? 'change:' + body.change.slice(0, 200) : null;
  var cache = done ? CacheService.getScriptCache() : null;
  if (cache && cache.get(done)) return current;
  conflicts(current, body);
  var changed = {};
  Object.keys(current).forEach(function (key) { changed[key] = current[key]; });
  ['name', 'price', 'date', 'category', 'categorySub'].forEach(function (key) {
    if (Object.prototype.hasOwnProperty.call(body.changes, key)) changed[key] = body.changes[key];
  });
  checked(changed, 0);
  if (String(changed.date).slice(0, 6) === String(body.date).slice(0, 6)) {
    overwrite(sheet, at, changed);
  } else {
    // Another month: the item moves to that month's sheet.
    var target = yearMonth(changed.date);
    var to = monthSheet(target.year, target.month, true);
    var there = rowsById(to)[changed.id];
    if (there) overwrite(to, there, changed);
    else append(to, [row(changed)]);
    sheet.deleteRow(at);
  }
  // Six hours, Apps Script's longest; the cache may forget sooner, and then "was" still guards the fields.
  if (cache) cache.put(done, '1', 21600);
  return changed;
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
