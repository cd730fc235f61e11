// CSV parsing shared by the export tests.
// RFC 4180 parser (quoted fields, doubled quotes, CRLF), strict: throws on a stray quote.
export function parseCsv(text) {
  const rows = [];
  let row = [], field = '', i = 0, quoted = false;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false;
      } else field += c;
    } else if (c === '"') {
      if (field !== '') throw new Error('stray quote at ' + i);
      quoted = true;
    } else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; }
    else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else field += c;
  }
  if (quoted) throw new Error('unterminated quote');
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}
