"use strict";
(function () {
  const data = JSON.parse(document.getElementById("session-data").textContent);
  const session = data.session;
  const steps = session.steps;
  const ROW = 24, CONTEXT = 2, CHECKPOINT = 250, PAGE = 200;
  const byId = (id) => document.getElementById(id);
  const timeline = byId("timeline"), spacer = byId("spacer"), filter = byId("filter");

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // States: the initial lines, then each step's changes ([start, removed, inserted]).
  function applyChanges(lines, changes) {
    for (const [start, removed, inserted] of changes || []) {
      lines = lines.slice(0, start).concat(inserted, lines.slice(start + removed));
    }
    return lines;
  }
  const checkpoints = [session.initialState];
  let cached = { index: -1, lines: session.initialState };
  function stateAfter(index) {
    if (index === cached.index) return cached.lines;
    const k = Math.min(Math.floor((index + 1) / CHECKPOINT), checkpoints.length - 1);
    let from = k * CHECKPOINT - 1, lines = checkpoints[k];
    if (cached.index > from && cached.index < index) {
      from = cached.index;
      lines = cached.lines;
    }
    for (let i = from + 1; i <= index; i++) {
      lines = applyChanges(lines, steps[i].changes);
      if ((i + 1) % CHECKPOINT === 0 && checkpoints.length === (i + 1) / CHECKPOINT) {
        checkpoints.push(lines);
      }
    }
    cached = { index, lines };
    return lines;
  }

  // A dump line: its indentation, and its label ("name: ") shown as the field.
  const indentOf = (line) => line.length - line.trimStart().length;
  const LABEL = /^( *)("(?:[^"\\]|\\.)*"|[^\s"(:][^\s(]*?): /;
  function lineNode(sign, text, className) {
    const row = el("div", "line" + (className ? " " + className : ""));
    if (sign !== null) row.append(el("span", "sign", sign));
    const match = LABEL.exec(text);
    if (match) {
      row.append(match[1], el("span", "field", match[2]), ": ");
      row.append(text.slice(match[0].length));
    } else {
      row.append(text);
    }
    return row;
  }

  // The diff of one step: its changed lines, two lines of context, folds between.
  function renderDiff(index) {
    const box = byId("diff");
    box.replaceChildren();
    const before = stateAfter(index - 1);
    const hunks = [];
    let shift = 0;
    for (const [start, removed, inserted] of steps[index].changes || []) {
      hunks.push({ at: start - shift, removed, inserted });
      shift += inserted.length - removed;
    }
    if (hunks.length === 0) {
      box.append(el("div", "line empty", "(no state changes)"));
      return;
    }
    const rows = [];
    const near = (o, h) =>
      o === 0 || (h < hunks.length && hunks[h].at - o <= CONTEXT) ||
      (h > 0 && o - (hunks[h - 1].at + hunks[h - 1].removed) < CONTEXT);
    let o = 0, h = 0;
    while (o < before.length || h < hunks.length) {
      if (h < hunks.length && hunks[h].at === o) {
        for (let i = o; i < o + hunks[h].removed; i++) rows.push(["−", before[i], "del"]);
        for (const line of hunks[h].inserted) rows.push(["+", line, "add"]);
        o += hunks[h].removed;
        h += 1;
      } else if (near(o, h)) {
        rows.push([" ", before[o], ""]);
        o += 1;
      } else {
        const end = h < hunks.length ? Math.max(o + 1, hunks[h].at - CONTEXT) : before.length;
        if (end - o === 1) rows.push([" ", before[o], ""]);
        else rows.push([null, "… (" + (end - o) + " unchanged lines)", "fold"]);
        o = end;
      }
    }
    for (const [sign, text, kind] of rows) box.append(lineNode(sign, text, kind));
  }

  // The state as a tree: a line whose next line is indented further opens a value, which
  // the next line at its own indentation closes. Children are built when opened.
  function structure(lines) {
    const close = new Int32Array(lines.length).fill(-1);
    const parent = new Int32Array(lines.length).fill(-1);
    const stack = [];
    for (let i = 0; i < lines.length; i++) {
      const indent = indentOf(lines[i]);
      while (stack.length && indentOf(lines[stack[stack.length - 1]]) >= indent) {
        const top = stack.pop();
        if (indentOf(lines[top]) === indent) {
          close[top] = i;
          break;
        }
        close[top] = i;
      }
      parent[i] = stack.length ? stack[stack.length - 1] : -1;
      if (close[i] === -1 && i + 1 < lines.length && indentOf(lines[i + 1]) > indent) {
        stack.push(i);
      }
    }
    for (const open of stack) close[open] = lines.length;
    return { close, parent };
  }

  const toggled = new Map();
  function renderTree(index) {
    const box = byId("tree");
    box.replaceChildren();
    const lines = stateAfter(index);
    const { close, parent } = structure(lines);
    const changed = new Set(), open = new Set();
    if (index >= 0) {
      for (const [start, , inserted] of steps[index].changes || []) {
        for (let i = start; i < start + inserted.length; i++) changed.add(i);
      }
    }
    for (const i of changed) {
      for (let p = parent[i]; p >= 0 && !open.has(p); p = parent[p]) open.add(p);
    }
    function isOpen(i, depth) {
      return toggled.has(i) ? toggled.get(i) : depth < 2 || open.has(i);
    }
    function node(i, depth) {
      const wrapper = el("div", "node");
      const opens = close[i] > i;
      const row = lineNode(null, lines[i].trimStart(), (changed.has(i) ? "changed" : "") +
        (opens ? " opener" : ""));
      const twisty = el("span", "twisty", opens ? "▸" : "");
      row.prepend(twisty);
      wrapper.append(row);
      if (!opens) return wrapper;
      const children = el("div", "children");
      const closing = close[i] < lines.length ? lines[close[i]].trimStart() : "";
      const tail = el("div", "line", closing);
      function expand() {
        twisty.textContent = "▾";
        folded.remove();
        children.replaceChildren();
        let j = i + 1, count = 0;
        function page() {
          let shown = 0;
          while (j < close[i] && shown < PAGE) {
            children.append(node(j, depth + 1));
            j = close[j] > j ? close[j] + 1 : j + 1;
            shown += 1;
            count += 1;
          }
          if (j < close[i]) {
            const more = el("button", "more", "show " + PAGE + " more (" + count + " shown)");
            more.onclick = () => { more.remove(); page(); };
            children.append(more);
          }
        }
        page();
        wrapper.append(children, tail);
      }
      const folded = el("span", "fold", " … " + closing);
      function collapse() {
        twisty.textContent = "▸";
        children.remove();
        tail.remove();
        row.append(folded);
      }
      row.onclick = () => {
        const next = twisty.textContent !== "▾";
        toggled.set(i, next);
        next ? expand() : collapse();
      };
      isOpen(i, depth) ? expand() : collapse();
      return wrapper;
    }
    if (lines.length) box.append(node(0, 0));
  }

  // A nested action is long and its wrappers are what rows share: `.path(.element(id: #0,
  // action: .answers(.write(...))))`. Shown shortened from the left, a wrapper at a time,
  // so that the part that tells rows apart stays in view; the whole is in the row's title.
  const WRAPPER = /^\.[A-Za-z_][A-Za-z0-9_]*\((?:id: [^,()]*, action: )?(?=\.)/;
  function shortAction(text, budget) {
    let body = text, dropped = false;
    while (body.length > budget) {
      const match = WRAPPER.exec(body);
      if (!match || !body.endsWith(")")) break;
      body = body.slice(match[0].length, -1);
      dropped = true;
    }
    return dropped ? "…" + body : text;
  }
  // A case path (`path.element.answers.write.prefixChanged`) shortened the same way.
  function shortCase(name, budget) {
    const parts = name.split(".");
    let start = 0;
    while (start < parts.length - 1 && parts.slice(start).join(".").length > budget) start++;
    return start ? "…" + parts.slice(start).join(".") : name;
  }
  const ACTION_BUDGET = 56, CASE_BUDGET = 30;

  // The timeline: one row per visible step, only those in view in the document.
  let visible = steps.map((_, i) => i);
  let selected = -1;
  const haystacks = [];
  function haystack(i) {
    if (haystacks[i] === undefined) {
      const s = steps[i];
      haystacks[i] = [s.action, s.case, s.screen, s.origin]
        .concat(s.fields || [], s.shared || []).join("\n").toLowerCase();
    }
    return haystacks[i];
  }
  function renderRows() {
    spacer.style.height = visible.length * ROW + "px";
    const first = Math.max(0, Math.floor(timeline.scrollTop / ROW) - 5);
    const last = Math.min(visible.length, first + Math.ceil(timeline.clientHeight / ROW) + 10);
    const rows = [];
    for (let v = first; v < last; v++) {
      const i = visible[v], s = steps[i];
      const row = el("div", "row" + (i === selected ? " selected" : ""));
      row.style.top = v * ROW + "px";
      row.title = s.action;
      row.append(el("span", "num", String(i + 1)), el("span", "badge " + s.origin, s.origin),
        el("span", "action", shortAction(s.action, ACTION_BUDGET)));
      if (s.shared) row.append(el("span", "badge shared", "shared"));
      row.onclick = () => select(i);
      rows.push(row);
    }
    spacer.replaceChildren(...rows);
  }
  timeline.addEventListener("scroll", () => requestAnimationFrame(renderRows));

  let showingNothing = false;
  function applyFilter() {
    const query = filter.value.trim().toLowerCase();
    visible = [];
    for (let i = 0; i < steps.length; i++) {
      if (!query || haystack(i).includes(query)) visible.push(i);
    }
    byId("shown").textContent = query ? visible.length + " shown" : "";
    if (!visible.length) {
      // Nothing matches: the detail pane must not go on showing a step the list hides.
      showingNothing = true;
      byId("step").replaceChildren(el("div", "action", "No action matches “" + query + "”"));
      for (const id of ["fields", "shared", "diff", "tree"]) byId(id).replaceChildren();
      renderRows();
      return;
    }
    if (!visible.includes(selected)) {
      // The selected step is filtered out: select the first shown step after it (or the
      // last before it), so the detail pane always shows a row of the list.
      const next = visible.find((i) => i > selected);
      select(next !== undefined ? next : visible[visible.length - 1], true);
    } else if (showingNothing) {
      select(selected, true);
    } else {
      renderRows();
    }
  }
  filter.addEventListener("input", applyFilter);

  function renderStep(index) {
    const box = byId("step"), fields = byId("fields"), shared = byId("shared");
    box.replaceChildren();
    fields.replaceChildren();
    shared.replaceChildren();
    if (index < 0) {
      box.append(el("div", "action", "Before the first action"));
      byId("diff").replaceChildren(el("div", "line empty", "(initial state)"));
      return;
    }
    const s = steps[index];
    box.append(el("div", "action", s.action));
    const meta = el("div", "meta");
    meta.append("step " + (index + 1) + " of " + steps.length + " · ",
      el("span", "badge " + s.origin, s.origin), " · screen " + s.screen + " · case " + s.case);
    box.append(meta);
    // A click on a field keeps the actions that changed it.
    function chip(name, className) {
      const node = el("span", className, name);
      node.title = "Show the actions that changed " + name;
      node.onclick = () => { filter.value = name; applyFilter(); };
      return node;
    }
    if (s.fields) {
      fields.append(el("h2", "", "Changed fields"));
      for (const f of s.fields) fields.append(chip(f, "chip"));
    }
    if (s.shared) {
      shared.append(el("h2", "", "Shared state changed"));
      for (const f of s.shared) shared.append(chip(f, "chip shared"));
    }
    renderDiff(index);
  }

  function select(index, scroll) {
    showingNothing = false;
    selected = Math.max(-1, Math.min(steps.length - 1, index));
    renderStep(selected);
    renderTree(selected);
    const position = visible.indexOf(selected);
    // The list must be its full height before it can scroll to the row.
    spacer.style.height = visible.length * ROW + "px";
    if (scroll && position >= 0) {
      const top = position * ROW;
      if (top < timeline.scrollTop) timeline.scrollTop = top;
      else if (top + ROW > timeline.scrollTop + timeline.clientHeight) {
        timeline.scrollTop = top + ROW - timeline.clientHeight;
      }
    }
    renderRows();
    try { history.replaceState(null, "", "#step=" + (selected + 1)); } catch (e) {}
  }

  function move(delta) {
    if (!visible.length) return;
    let position = visible.indexOf(selected);
    if (position < 0) {
      position = visible.findIndex((i) => i > selected);
      if (position < 0) position = visible.length;
      if (delta > 0) position -= 1;
    }
    select(visible[Math.max(0, Math.min(visible.length - 1, position + delta))], true);
  }
  document.addEventListener("keydown", (event) => {
    const typing = event.target === filter;
    if (event.key === "ArrowDown") move(1);
    else if (event.key === "ArrowUp") move(-1);
    else if (event.key === "Home" && !typing && visible.length) select(visible[0], true);
    else if (event.key === "End" && !typing && visible.length) {
      select(visible[visible.length - 1], true);
    } else return;
    event.preventDefault();
  });

  function stepFromAddress() {
    const match = /step=(\d+)/.exec(location.hash);
    return match ? Number(match[1]) - 1 : null;
  }
  window.addEventListener("hashchange", () => {
    const index = stepFromAddress();
    if (index !== null && index !== selected) select(index, true);
  });

  // The counts of actions per case, most frequent first; a click filters by the case.
  const counts = new Map();
  for (const s of steps) counts.set(s.case, (counts.get(s.case) || 0) + 1);
  const list = byId("counts");
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const item = el("li");
    item.title = name;
    item.append(el("span", "name", shortCase(name, CASE_BUDGET)), el("span", "count", String(count)));
    item.onclick = () => { filter.value = name; applyFilter(); };
    list.append(item);
  }

  const users = steps.filter((s) => s.origin === "user").length;
  byId("title").textContent = data.title;
  byId("summary").textContent = session.stateType + " · " + steps.length + " actions (" +
    users + " user, " + (steps.length - users) + " effect)";
  const start = stepFromAddress();
  select(start !== null ? start : steps.length ? 0 : -1, true);
  document.documentElement.dataset.ready = "true";
  document.documentElement.dataset.loadMs = String(Math.round(performance.now()));
})();
