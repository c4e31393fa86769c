// The dashboard's DOM helpers, shared by its scripts (dashboard.js, protection.js): values by test
// id, table cells and rows. Text from the bot goes in with textContent, never as HTML.
(function () {
  'use strict';

  const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);
  const setText = (id, text) => {
    const el = byTestId(id);
    if (el !== null) el.textContent = text;
    return el;
  };
  const show = (value) => (value === null || value === undefined ? '–' : String(value));
  const time = (ms) => new Date(ms).toISOString().slice(11, 19);

  function cell(text, options = {}) {
    const td = document.createElement('td');
    td.textContent = show(text);
    if (options.num) td.className = 'num';
    if (options.cls) td.classList.add(options.cls);
    if (options.field) td.dataset.field = options.field;
    if (options.title) td.title = options.title;
    if (options.span) td.colSpan = options.span;
    return td;
  }

  /** The rows of `tbodyId`: one per row ({ key: [data attribute, value], value, data? }), or one saying `emptyText`. */
  function fill(tbodyId, rows, columns, emptyText) {
    const tbody = byTestId(tbodyId);
    const out = [];
    for (const row of rows) {
      const tr = document.createElement('tr');
      tr.dataset[row.key[0]] = row.key[1];
      for (const [name, value] of Object.entries(row.data || {})) tr.dataset[name] = value;
      if (row.cls) tr.className = row.cls;
      for (const c of columns(row.value)) tr.appendChild(c);
      out.push(tr);
    }
    if (out.length === 0) {
      const tr = document.createElement('tr');
      const td = cell(emptyText);
      td.className = 'empty';
      td.colSpan = tbody.closest('table').querySelectorAll('thead th').length;
      tr.appendChild(td);
      out.push(tr);
    }
    tbody.replaceChildren(...out);
  }

  window.perpbotDom = { byTestId, setText, show, time, cell, fill };
})();
