'use strict';
// The console: every page reads and changes through the admin API with the session cookie. Data
// goes into the page as text (textContent, text nodes), never as markup.
(() => {
  const state = { session: null, live: [], source: null, page: null, refresh: null };
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === 'text') node.textContent = value;
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  async function api(method, path, body) {
    const headers = { 'Accept': 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (state.session && method !== 'GET') headers['X-Console-Csrf'] = state.session.csrf;
    const response = await fetch(path, { method, headers, credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 401 && path !== '/console/api/session') { signedOut(); throw new Error('signed out'); }
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Error(json && json.error ? json.error.message : 'HTTP ' + response.status);
    return json;
  }

  const usd = (text) => text === null || text === undefined ? '—' : '$' + Number(text).toFixed(4);
  const count = (n) => Number(n || 0).toLocaleString('en-US');
  const day = (offset) => new Date(Date.now() - offset * 86400000).toISOString().slice(0, 10);

  function table(headers, rows, numeric) {
    const head = el('tr', {}, ...headers.map((h, i) => el('th', { scope: 'col', class: numeric && numeric[i] ? 'num' : null, text: h })));
    const body = rows.map((cells) => el('tr', {}, ...cells.map((c, i) =>
      el('td', { class: numeric && numeric[i] ? 'num' : null }, c instanceof Node ? c : String(c ?? '—')))));
    return el('div', { class: 'table-wrap' }, el('table', {}, el('thead', {}, head), el('tbody', {}, ...body)));
  }

  function budgetBar(key) {
    if (key.budget_usd === null || key.budget_usd === undefined) return 'no budget';
    const share = Number(key.budget_usd) > 0 ? Math.min(1, Number(key.spent_usd) / Number(key.budget_usd)) : 1;
    const bar = el('span', { class: 'bar', 'aria-hidden': 'true' }, el('span'));
    bar.firstChild.style.width = (share * 100).toFixed(0) + '%';
    return el('span', {}, bar, ' ' + usd(key.spent_usd) + ' of ' + usd(key.budget_usd) + ' per '
      + (key.budget_period || 'life') + ' (' + (share * 100).toFixed(0) + '%)');
  }

  // A provider's price table: its version, the day its catalogue's prices were taken, and how many
  // prices configuration sets over the catalogue's.
  function priceTable(prices) {
    if (!prices.version) return 'no prices';
    const parts = [prices.version, prices.models + ' models'];
    if (prices.as_of) parts.push('as of ' + prices.as_of);
    if (prices.configured) parts.push(prices.configured + ' set in configuration');
    // Each part whole on its line: a day cut at its hyphen misreads.
    return el('span', {}, ...parts.flatMap((part, i) => [i ? ', ' : null, el('span', { class: 'nowrap', text: part })]));
  }

  function policies(key) {
    const parts = [];
    if (key.models) parts.push('models ' + key.models.join(', '));
    if (key.rpm !== null && key.rpm !== undefined) parts.push('rpm ' + key.rpm);
    if (key.tpm !== null && key.tpm !== undefined) parts.push('tpm ' + key.tpm);
    if (key.expires_at) parts.push('expires ' + new Date(key.expires_at * 1000).toISOString().slice(0, 16));
    return parts.length ? parts.join('; ') : 'none';
  }

  // Pages ----------------------------------------------------------------------------------------
  const pages = {
    async overview(root) {
      const [today, month, keys, chartData] = await Promise.all([
        api('GET', '/admin/v1/usage?group_by=day&from=' + day(0) + '&to=' + day(0)),
        api('GET', '/admin/v1/usage?group_by=day'),
        api('GET', '/admin/v1/keys'),
        api('GET', '/admin/v1/usage?from=' + day(29) + '&to=' + day(0) + '&group_by=day,' + (state.split || 'model'))]);
      const card = (title, report) => el('div', { class: 'card' }, el('h3', { text: title }),
        el('p', { text: count(report.totals.requests) + ' requests' }),
        el('p', { text: count(report.totals.total_tokens) + ' tokens' }),
        el('p', { text: usd(report.totals.cost_usd) + ' spent' }));
      const recent = state.live;
      const errors = recent.filter((e) => e.status >= 400 || e.status === 0).length;
      root.append(el('h2', { text: 'Overview' }), el('div', { class: 'cards', id: 'overview-cards' },
        card('Today', today), card('This month', month),
        el('div', { class: 'card' }, el('h3', { text: 'Error rate' }),
          el('p', { id: 'error-rate', text: recent.length ? (100 * errors / recent.length).toFixed(1) + '% of the last '
            + recent.length + ' requests' : 'no requests seen yet' }))));
      const split = el('select', { id: 'split', onchange: (e) => { state.split = e.target.value; show(state.page); } },
        el('option', { value: 'model', text: 'by model' }), el('option', { value: 'key', text: 'by key' }));
      split.value = state.split || 'model';
      root.append(el('h3', { text: 'Spend per day, last 30 days' }), el('label', { for: 'split', text: 'Split' }), split);
      const chart = el('div', { id: 'chart', role: 'img', 'aria-label': 'Spend per day, last 30 days' });
      root.append(chart);
      drawChart(chart, chartData, state.split || 'model');
      const budgets = keys.data.filter((k) => k.budget_usd !== null && !k.revoked_at)
        .sort((a, b) => Number(b.spent_usd) / Number(b.budget_usd || 1) - Number(a.spent_usd) / Number(a.budget_usd || 1))
        .slice(0, 5);
      root.append(el('h3', { text: 'Keys closest to their budgets' }),
        budgets.length ? table(['Key', 'Spend'], budgets.map((k) => [k.name, budgetBar(k)])) : el('p', { text: 'No key has a budget.' }));
    },

    async keys(root) {
      root.append(el('h2', { text: 'Keys' }));
      const created = el('div', { id: 'created-key' });
      const error = el('p', { class: 'error', role: 'alert' });
      const form = el('form', { class: 'row', id: 'create-key' },
        field('Name', el('input', { id: 'new-name', required: 'required', maxlength: '200' })),
        field('Budget USD', el('input', { id: 'new-budget', inputmode: 'decimal' })),
        field('Period', el('select', { id: 'new-period' }, el('option', { value: 'month', text: 'month' }),
          el('option', { value: 'day', text: 'day' }), el('option', { value: '', text: 'life' }))),
        field('rpm', el('input', { id: 'new-rpm', inputmode: 'numeric' })),
        field('Admin', el('input', { id: 'new-admin', type: 'checkbox' })),
        el('button', { type: 'submit', text: 'Create key' }));
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        error.textContent = '';
        const body = { name: $('new-name').value, admin: $('new-admin').checked };
        if ($('new-budget').value) { body.budget_usd = Number($('new-budget').value); body.budget_period = $('new-period').value || null; }
        if ($('new-rpm').value) body.rpm = Number($('new-rpm').value);
        try {
          const key = await api('POST', '/admin/v1/keys', body);
          form.reset();
          const secret = el('code', { class: 'secret', id: 'new-key-text', text: key.key });
          created.replaceChildren(el('div', { class: 'notice', role: 'status' },
            el('p', { text: 'Key "' + key.name + '" created. Copy it now: it is not shown again.' }), secret, ' ',
            el('button', { type: 'button', text: 'Copy', onclick: () => navigator.clipboard.writeText(secret.textContent) }),
            ' ', el('button', { type: 'button', text: 'Done', onclick: () => created.replaceChildren() })));
          await refreshKeys(list);
        } catch (e) { error.textContent = e.message; }
      });
      const list = el('div', { id: 'key-list' });
      root.append(form, error, created, list);
      await refreshKeys(list);
    },

    async usage(root) {
      const keys = await api('GET', '/admin/v1/keys');
      const keySelect = el('select', { id: 'usage-key' }, el('option', { value: '', text: 'every key' }),
        ...keys.data.map((k) => el('option', { value: k.id, text: k.name + ' (' + k.id + ')' })));
      const groups = ['key', 'model', 'day'].map((g) => el('label', {}, el('input', { type: 'checkbox', value: g, checked: g === 'key' ? 'checked' : null, class: 'usage-group' }), ' ' + g));
      const from = el('input', { id: 'usage-from', type: 'date', value: day(0).slice(0, 8) + '01' });
      const to = el('input', { id: 'usage-to', type: 'date', value: day(0) });
      const modelInput = el('input', { id: 'usage-model', placeholder: 'any' });
      const form = el('form', { class: 'row', id: 'usage-form' },
        field('From', from), field('To', to), field('Key', keySelect), field('Model', modelInput),
        el('fieldset', {}, el('legend', { text: 'Group by' }), ...groups),
        el('button', { type: 'submit', text: 'Show' }));
      const csv = el('a', { id: 'usage-csv', text: 'Download CSV' });
      const out = el('div', { id: 'usage-table' });
      const error = el('p', { class: 'error', role: 'alert' });
      const run = async () => {
        const params = new URLSearchParams({ from: from.value, to: to.value,
          group_by: [...root.querySelectorAll('.usage-group:checked')].map((c) => c.value).join(',') || 'key' });
        if (keySelect.value) params.set('key', keySelect.value);
        csv.setAttribute('href', '/admin/v1/usage?' + params + '&format=csv');
        csv.setAttribute('download', 'usage.csv');
        try {
          error.textContent = '';
          const report = await api('GET', '/admin/v1/usage?' + params);
          const model = modelInput.value.trim();
          const rows = report.data.filter((r) => !model || (r.model || '').includes(model));
          out.replaceChildren(table(['Key', 'Model', 'Day', 'Requests', 'Tokens', 'Cost'],
            rows.map((r) => [r.key_name || r.key_id, r.model, r.day, count(r.requests), count(r.total_tokens), usd(r.cost_usd)]),
            [false, false, false, true, true, true]));
        } catch (e) { error.textContent = e.message; }
      };
      form.addEventListener('submit', (e) => { e.preventDefault(); run(); });
      root.append(el('h2', { text: 'Usage' }), form, csv, error, out);
      await run();
    },

    async plugins(root) {
      const list = await api('GET', '/admin/v1/plugins');
      const result = el('p', { id: 'reload-result', role: 'status' });
      const render = (data) => table(['Prefix', 'Jar', 'Version', 'Priority', 'Default model', 'Key set', 'Price table'],
        data.map((p) => [p.prefix, p.jar || p.source, p.version, p.priority, p.default_model, p.key_set ? 'yes' : 'no',
          priceTable(p.prices)]));
      const inForce = (answer) => 'Prices ' + answer.price_version + ' in force since '
        + new Date(answer.prices_since * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
      const tableHolder = el('div', { id: 'plugin-table' }, render(list.data));
      const generation = el('p', { id: 'plugin-generation', text: 'Routing generation ' + list.generation });
      const prices = el('p', { id: 'plugin-prices', text: inForce(list) });
      const reload = el('button', { type: 'button', id: 'reload-plugins', text: 'Reload plugins', onclick: async () => {
        result.textContent = 'Reloading…';
        try {
          const done = await api('POST', '/admin/v1/plugins/reload');
          result.textContent = 'Reloaded: routing generation ' + done.generation + '. Added: ' + (done.added.join(', ') || 'none')
            + '; removed: ' + (done.removed.join(', ') || 'none') + '; changed: ' + (done.changed.join(', ') || 'none') + '.';
          generation.textContent = 'Routing generation ' + done.generation;
          prices.textContent = inForce(done);
          tableHolder.replaceChildren(render(done.data));
        } catch (e) { result.textContent = 'Refused: ' + e.message; }
      } });
      root.append(el('h2', { text: 'Plugins' }), generation, prices, reload, result, tableHolder);
    },

    async live(root) {
      const holder = el('div', { id: 'live-table' });
      root.append(el('h2', { text: 'Live' }), el('p', { text: 'The last requests, newest first, as they end.' }), holder);
      renderLive(holder);
    },

    async self(root) {
      const own = await api('GET', '/console/api/self');
      root.append(el('h2', { text: 'My key' }));
      if (own.key) {
        root.append(table(['Name', 'Id', 'Policies', 'Spend against budget'],
          [[own.key.name, own.key.id, policies(own.key), budgetBar(own.key)]]));
      } else {
        root.append(el('p', { text: 'Signed in with the master key, which has no policies.' }));
      }
      root.append(el('h3', { text: 'Usage per day, last 30 days' }),
        el('p', { id: 'self-totals', text: count(own.usage.totals.requests) + ' requests, ' + count(own.usage.totals.total_tokens)
          + ' tokens, ' + usd(own.usage.totals.cost_usd) }),
        table(['Day', 'Requests', 'Tokens', 'Cost'], own.usage.data.map((r) => [r.day, count(r.requests), count(r.total_tokens), usd(r.cost_usd)]),
          [false, true, true, true]));
    },
  };

  function field(label, input) {
    return el('div', {}, el('label', { for: input.id, text: label }), input);
  }

  async function refreshKeys(list) {
    const keys = await api('GET', '/admin/v1/keys');
    if (list.contains(document.activeElement) && document.activeElement.tagName === 'INPUT') return;
    list.replaceChildren(table(['Name', 'Id', 'Admin', 'Policies', 'Spend', 'State', 'Change'],
      keys.data.map((k) => [k.name, k.id, k.admin ? 'yes' : 'no', policies(k), budgetBar(k),
        k.revoked_at ? 'revoked' : 'active', k.revoked_at ? '' : keyActions(k, list)])));
  }

  function keyActions(key, list) {
    const rpm = el('input', { 'aria-label': 'rpm of ' + key.name, class: 'rpm', size: '5', inputmode: 'numeric', value: key.rpm ?? '' });
    const message = el('span', { role: 'status' });
    const save = el('button', { type: 'button', class: 'save-rpm', text: 'Set rpm', onclick: async () => {
      try {
        await api('PATCH', '/admin/v1/keys/' + encodeURIComponent(key.id), { rpm: rpm.value === '' ? null : Number(rpm.value) });
        rpm.blur();
        await refreshKeys(list);
      } catch (e) { message.textContent = e.message; }
    } });
    const holder = el('span');
    const revoke = el('button', { type: 'button', class: 'revoke', text: 'Revoke', onclick: () => {
      const confirm = el('button', { type: 'button', class: 'confirm-revoke', text: 'Confirm revoke of ' + key.name, onclick: async () => {
        try { await api('DELETE', '/admin/v1/keys/' + encodeURIComponent(key.id)); await refreshKeys(list); } catch (e) { message.textContent = e.message; }
      } });
      holder.replaceChildren(confirm, ' ', el('button', { type: 'button', text: 'Cancel', onclick: () => holder.replaceChildren(revoke) }));
      confirm.focus();
    } });
    holder.append(revoke);
    return el('span', {}, rpm, ' ', save, ' ', holder, ' ', message);
  }

  function drawChart(holder, report, by) {
    const days = [];
    for (let i = 29; i >= 0; i--) days.push(day(i));
    const names = [...new Set(report.data.map((r) => (by === 'key' ? r.key_name || r.key_id : r.model) || '(none)'))];
    const series = names.map((name) => days.map((d) => report.data
      .filter((r) => r.day === d && ((by === 'key' ? r.key_name || r.key_id : r.model) || '(none)') === name)
      .reduce((sum, r) => sum + Number(r.cost_usd || 0), 0)));
    const x = days.map((d) => Date.parse(d + 'T00:00:00Z') / 1000);
    const dashes = [[], [6, 3], [2, 3], [10, 4, 2, 4]];
    if (typeof uPlot === 'undefined') { holder.textContent = 'The chart library did not load.'; return; }
    // The holder is not in the page yet: the width is the page's, less main's padding.
    const width = Math.max(260, Math.min(1168, document.documentElement.clientWidth - 40));
    new uPlot({ width, height: 260, series: [{}, ...names.map((name, i) => ({ label: name, stroke: ['#0b57d0', '#a40000', '#137333', '#6b3fa0'][i % 4],
      dash: dashes[i % 4], width: 2, value: (u, v) => v === null ? '—' : '$' + v.toFixed(4) }))],
      axes: [{}, { values: (u, ticks) => ticks.map((t) => '$' + t) }] }, [x, ...series], holder);
    holder.append(table(['Series', '30-day spend'], names.map((name, i) => [name, usd(series[i].reduce((a, b) => a + b, 0))])));
  }

  function renderLive(holder = $('live-table')) {
    if (!holder) return;
    holder.replaceChildren(table(['Time', 'Key', 'Model', 'Status', 'Latency ms', 'Tokens', 'Cost'],
      state.live.slice().reverse().map((e) => [new Date(e.at).toISOString().slice(11, 19), e.key_name || e.key_id, e.model,
        el('span', { class: e.status >= 400 || e.status === 0 ? 'status-bad' : null, text: String(e.status) }),
        e.latency_ms, count(e.tokens), usd(e.cost_usd)]), [false, false, false, false, true, true, true]));
  }

  function startLive() {
    if (state.source) return;
    state.source = new EventSource('/console/api/live');
    state.source.onmessage = (event) => {
      state.live.push(JSON.parse(event.data));
      if (state.live.length > 200) state.live.shift();
      renderLive();
      // Other pages show what an exchange changed: spend, counts, budgets.
      clearTimeout(state.refresh);
      state.refresh = setTimeout(() => {
        // Only while the address still names Overview: a click on another page changes the hash
        // before its hashchange event runs, and show() would write #overview back over it.
        if (state.page === 'overview' && location.hash === '#overview') show('overview');
        if (state.page === 'keys' && $('key-list')) refreshKeys($('key-list')).catch(() => {});
      }, 300);
    };
  }

  // Sign-in, navigation -------------------------------------------------------------------------
  function signedOut() {
    state.session = null;
    if (state.source) { state.source.close(); state.source = null; }
    state.live = [];
    $('nav').hidden = true;
    $('who').hidden = true;
    $('page').replaceChildren();
    $('sign-in').hidden = false;
    $('sign-in-key').focus();
  }

  function signedIn(session) {
    state.session = session;
    $('sign-in').hidden = true;
    $('who').hidden = false;
    $('who-name').textContent = 'Signed in as ' + (session.key_name || session.key_id) + (session.admin ? ' (admin)' : ' (read-only)');
    for (const link of $('nav').querySelectorAll('a')) link.hidden = !session.admin && link.dataset.page !== 'self';
    $('nav').hidden = false;
    if (session.admin) startLive();
    const wanted = location.hash.slice(1);
    show(pages[wanted] && (session.admin || wanted === 'self') ? wanted : session.admin ? 'overview' : 'self');
  }

  async function show(page) {
    state.page = page;
    if (location.hash !== '#' + page) history.replaceState(null, '', '#' + page);
    for (const link of $('nav').querySelectorAll('a')) {
      if (link.dataset.page === page) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
    }
    const root = el('section', { 'aria-live': 'polite', 'data-page': page });
    try {
      await pages[page](root);
    } catch (e) {
      if (e.message === 'signed out') return;
      root.append(el('p', { class: 'error', role: 'alert', text: e.message }));
    }
    if (state.page === page) $('page').replaceChildren(root);
  }

  document.addEventListener('DOMContentLoaded', async () => {
    $('sign-in').addEventListener('submit', async (event) => {
      event.preventDefault();
      const input = $('sign-in-key');
      const key = input.value;
      input.value = '';
      $('sign-in-error').textContent = '';
      try {
        signedIn(await api('POST', '/console/api/session', { key }));
      } catch (e) { $('sign-in-error').textContent = e.message; }
    });
    $('sign-out').addEventListener('click', async () => {
      try { await api('DELETE', '/console/api/session'); } finally { signedOut(); }
    });
    window.addEventListener('hashchange', () => {
      const page = location.hash.slice(1);
      if (state.session && pages[page] && page !== state.page && (state.session.admin || page === 'self')) show(page);
    });
    try {
      signedIn(await api('GET', '/console/api/session'));
    } catch (e) { signedOut(); }
  });
})();
