// Time as Sheets and Apps Script keep it, for host.js (main thread) and worker.js (the script's thread): a zone's wall
// clock, Sheets' serial day numbers (days since 1899-12-30 on the spreadsheet's wall clock, which is what a date or time
// cell holds), Sheets' number formats for dates and times, and Java's SimpleDateFormat patterns of Utilities.formatDate.
'use strict';

const DAY = 86400000;
const EPOCH = Date.UTC(1899, 11, 30);  // Sheets' day zero

const formatters = new Map();
/** The wall clock of `zone` at instant `ms`: {year, month, day, hour, minute, second, ms, weekday}. */
function wallClock(ms, zone) {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric',
                                               day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric'});
    formatters.set(zone, format);
  }
  const parts = {};
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  const wall = {year, month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) % 24,
                minute: Number(parts.minute), second: Number(parts.second), ms: ((ms % 1000) + 1000) % 1000};
  wall.weekday = new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay();
  return wall;
}

function utcOf(wall) {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.ms || 0);
  return date.getTime();
}

/** The instant at which `zone`'s wall clock shows `wall` (the earlier one in a repeated hour). */
function instantOf(wall, zone) {
  const guess = utcOf(wall);
  const offset = t => utcOf(wallClock(t, zone)) - t;
  let result = guess - offset(guess);
  const again = guess - offset(result);
  if (again !== result) result = Math.min(result, again);
  return result;
}

/** Sheets' serial number of an instant, on `zone`'s wall clock. */
function serialOf(ms, zone) {
  const wall = wallClock(ms, zone);
  return (utcOf(Object.assign({}, wall, {hour: 0, minute: 0, second: 0, ms: 0})) - EPOCH) / DAY +
    (wall.hour * 3600000 + wall.minute * 60000 + wall.second * 1000 + wall.ms) / DAY;
}

/** The wall clock a serial number stands for (no zone: a serial is a wall clock). */
function wallOfSerial(serial) {
  const whole = Math.floor(serial);
  let rest = Math.round((serial - whole) * DAY);
  const date = new Date(EPOCH + whole * DAY + rest);
  return {year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: date.getUTCHours(),
          minute: date.getUTCMinutes(), second: date.getUTCSeconds(), ms: date.getUTCMilliseconds(), weekday: date.getUTCDay()};
}

/** The instant a serial number stands for in `zone`: what getValues() hands the script for a date or time cell. */
function instantOfSerial(serial, zone) {
  return instantOf(wallOfSerial(serial), zone);
}

function serialOfWall(wall) {
  return (utcOf(Object.assign({ms: 0, hour: 0, minute: 0, second: 0}, wall)) - EPOCH) / DAY;
}

const pad = (n, width) => String(n).padStart(width, '0');

// MARK: - Sheets' number formats for dates and times

const SHEETS_TOKEN = /"[^"]*"|\\.|[yY]+|[mM]+|[dD]+|[hH]+|[sS]+(\.0+)?|AM\/PM|am\/pm|A\/P|a\/p|\[[hms]+\]|./g;
const WEEKDAYS_JA = ['日', '月', '火', '水', '木', '金', '土'];

/** Whether a number format shows dates or times (its letters, outside quotes, are date and time fields). */
function isDateFormat(format) {
  if (!format || format === 'General' || format === '@') return false;
  const bare = format.replace(/"[^"]*"/g, '').replace(/\\./g, '');
  return /[yYmMdDhHsS]/.test(bare) && !/^[#0,.%E+\-]*$/.test(bare);
}

/** A serial number shown in a date or time format, as a Japanese-locale spreadsheet shows it. */
function formatSerial(serial, format) {
  const wall = wallOfSerial(serial);
  const tokens = format.match(SHEETS_TOKEN) || [];
  const twelve = tokens.some(t => /^(AM\/PM|am\/pm|A\/P|a\/p)$/.test(t));
  const kind = t => /^[hH]/.test(t) ? 'h' : /^[sS]/.test(t) ? 's' : /^[yYdD]/.test(t) ? 'd' : /^[mM]/.test(t) ? 'm' : null;
  // "m" is a minute right after an hour or right before a second, otherwise a month (Sheets' rule).
  const minute = i => {
    for (let j = i - 1; j >= 0; j--) { const k = kind(tokens[j]); if (k) { if (k === 'h') return true; break; } }
    for (let j = i + 1; j < tokens.length; j++) { const k = kind(tokens[j]); if (k) return k === 's'; }
    return false;
  };
  return tokens.map((token, i) => {
    if (token.startsWith('"')) return token.slice(1, -1);
    if (token.startsWith('\\')) return token.slice(1);
    const lower = token.toLowerCase();
    if (/^y+$/.test(lower)) return lower.length <= 2 ? pad(wall.year % 100, 2) : String(wall.year);
    if (/^m+$/.test(lower)) {
      if (lower.length <= 2 && minute(i)) return lower.length === 2 ? pad(wall.minute, 2) : String(wall.minute);
      return lower.length === 1 ? String(wall.month) : lower.length === 2 ? pad(wall.month, 2) : wall.month + '月';
    }
    if (/^d+$/.test(lower)) {
      if (lower.length === 1) return String(wall.day);
      if (lower.length === 2) return pad(wall.day, 2);
      return lower.length === 3 ? WEEKDAYS_JA[wall.weekday] : WEEKDAYS_JA[wall.weekday] + '曜日';
    }
    if (/^h+$/.test(lower)) {
      const hour = twelve ? (wall.hour % 12 || 12) : wall.hour;
      return lower.length === 1 ? String(hour) : pad(hour, 2);
    }
    if (/^\[h+\]$/.test(lower)) return String(Math.floor(serial * 24));
    if (/^s+/.test(lower)) {
      const fraction = /\.(0+)$/.exec(lower);
      const base = lower.startsWith('ss') ? pad(wall.second, 2) : String(wall.second);
      return fraction ? base + '.' + pad(wall.ms, 3).slice(0, fraction[1].length).padEnd(fraction[1].length, '0') : base;
    }
    if (/^(am\/pm)$/.test(lower)) return wall.hour < 12 ? '午前' : '午後';
    if (/^(a\/p)$/.test(lower)) return wall.hour < 12 ? 'a' : 'p';
    return token;
  }).join('');
}

// MARK: - Utilities.formatDate: Java's SimpleDateFormat

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
                'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Utilities.formatDate(date, zone, pattern): letters are fields, '…' quotes literal text, '' is an apostrophe. */
function simpleDateFormat(ms, zone, pattern) {
  const wall = wallClock(ms, zone);
  const offsetMinutes = Math.round((utcOf(wall) - ms) / 60000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = pad(Math.floor(Math.abs(offsetMinutes) / 60), 2), minutes = pad(Math.abs(offsetMinutes) % 60, 2);
  let out = '';
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i];
    if (c === "'") {
      const close = pattern.indexOf("'", i + 1);
      if (close === i + 1) { out += "'"; i += 2; continue; }
      if (close < 0) throw new Error('Unterminated quote');
      out += pattern.slice(i + 1, close).replace(/''/g, "'");
      i = close + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) { out += c; i++; continue; }
    let n = 1;
    while (pattern[i + n] === c) n++;
    i += n;
    switch (c) {
      case 'y': case 'Y': out += n === 2 ? pad(wall.year % 100, 2) : pad(wall.year, n); break;
      case 'M': case 'L':
        out += n >= 4 ? MONTHS[wall.month - 1] : n === 3 ? MONTHS[wall.month - 1].slice(0, 3) : pad(wall.month, n);
        break;
      case 'd': out += pad(wall.day, n); break;
      case 'H': out += pad(wall.hour, n); break;
      case 'k': out += pad(wall.hour || 24, n); break;
      case 'h': out += pad(wall.hour % 12 || 12, n); break;
      case 'K': out += pad(wall.hour % 12, n); break;
      case 'm': out += pad(wall.minute, n); break;
      case 's': out += pad(wall.second, n); break;
      case 'S': out += pad(wall.ms, 3).slice(0, Math.max(n, 3)).padEnd(n, '0'); break;
      case 'a': out += wall.hour < 12 ? 'AM' : 'PM'; break;
      case 'E': out += n >= 4 ? DAYS[wall.weekday] : DAYS[wall.weekday].slice(0, 3); break;
      case 'u': out += String(wall.weekday || 7); break;
      case 'D': out += pad(Math.round((utcOf({year: wall.year, month: wall.month, day: wall.day, hour: 0, minute: 0, second: 0}) -
                                       Date.UTC(wall.year, 0, 1)) / DAY) + 1, n); break;
      case 'Z': out += sign + hours + minutes; break;
      case 'X':
        out += offsetMinutes === 0 ? 'Z' : n === 1 ? sign + hours : n === 2 ? sign + hours + minutes : sign + hours + ':' + minutes;
        break;
      case 'z': out += 'GMT' + sign + hours + ':' + minutes; break;
      default: throw new Error("Illegal pattern character '" + c + "'");
    }
  }
  return out;
}

module.exports = {DAY, wallClock, instantOf, serialOf, wallOfSerial, instantOfSerial, serialOfWall, isDateFormat, formatSerial,
                  simpleDateFormat};
