// In-page half of `weir-bench grid`'s window part. Each WebDriver "execute async script"
// call is this file followed by one line that calls one of the functions below with the
// call's arguments and hands the result (or `{ error }`) to WebDriver's callback. Timings
// are `performance.now()` in the page; nothing here changes the app's code or state
// beyond what a user's clicks and scrolling would.

const selector = (id) => `[data-testid="${id}"]`;
const one = (id, root = document) => root.querySelector(selector(id));
const all = (id, root = document) => [...root.querySelectorAll(selector(id))];
const CELLS = '[data-testid^="cell-"]';
/** Longer than the grid takes to settle after a scroll (its DOM layer follows then). */
const PASS_SETTLE_MS = 500;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nextFrame = () =>
  new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * Resolves with `performance.now()` once the current task, and the frame's style, layout
 * and paint when called from a requestAnimationFrame callback, are done: a window message
 * is a task of this process, handled in order after them. (A MessageChannel message would
 * do in other engines, but WebKit routes it through another process: 3-7 ms late when idle.)
 */
const afterRendering = () =>
  new Promise((resolve) => {
    const token = `weir-bench-${performance.now()}-${Math.random()}`;
    const onMessage = (event) => {
      if (event.source !== window || event.data !== token) return;
      window.removeEventListener("message", onMessage);
      resolve(performance.now());
    };
    window.addEventListener("message", onMessage);
    window.postMessage(token, "*");
  });

/** Throws when the app shows an error, or when `start` is more than `timeoutMs` ago. */
function check(what, start, timeoutMs) {
  const error = all("error").find((e) => e.offsetParent !== null);
  if (error)
    throw new Error(
      `the app shows an error while waiting for ${what}: ${error.textContent}`,
    );
  if (performance.now() - start > timeoutMs)
    throw new Error(`timed out waiting for ${what}`);
}

async function until(what, test, timeoutMs) {
  const start = performance.now();
  for (;;) {
    const value = test();
    if (value) return value;
    check(what, start, timeoutMs);
    await sleep(20);
  }
}

async function go(page, timeoutMs) {
  // At start-up (and on a busy machine) the app may not have rendered its navigation yet.
  const link = await until(
    `the ${page} link`,
    () => one(`nav-${page}`),
    timeoutMs,
  );
  link.click();
  await until(
    `the ${page} page`,
    () => one("main")?.dataset.page === page,
    timeoutMs,
  );
}

/** The grid shows `people` rows (any number when null) and some cells. */
function gridShown(people) {
  const grid = one("membership-grid");
  if (!grid || !grid.querySelector(CELLS)) return false;
  return (
    people === null || grid.getAttribute("aria-rowcount") === String(people + 1)
  );
}

/** Open Memberships (on the demo, at start-up) and wait for its grid. */
async function showGrid(people, timeoutMs) {
  if (one("main")?.dataset.page !== "memberships")
    await go("memberships", timeoutMs);
  await until("the memberships grid", () => gridShown(people), timeoutMs);
  return { cells: document.querySelectorAll(CELLS).length };
}

/** Import a zuliprc on the Accounts page; the imported account becomes the active one. */
async function importZuliprc(path, email, timeoutMs) {
  await go("accounts", timeoutMs);
  const field = await until(
    "the zuliprc field",
    () => one("zuliprc-path"),
    timeoutMs,
  );
  field.value = path;
  field.dispatchEvent(new Event("input", { bubbles: true }));
  const button = await until(
    "the import button",
    () => one("zuliprc-import"),
    timeoutMs,
  );
  button.click();
  await until(
    `${email} to be the active account`,
    () => activeRow()?.textContent.includes(email),
    timeoutMs,
  );
  return { accounts: all("account-row").length };
}

const activeRow = () =>
  all("account-row").find((row) => row.classList.contains("active"));

/**
 * Switch to the other account and back (on the Accounts page), as a user would to see the
 * organization's current state: the next Memberships opening loads it afresh.
 */
async function switchAwayAndBack(email, timeoutMs) {
  await go("accounts", timeoutMs);
  const row = (mine) =>
    all("account-row").find((r) => r.textContent.includes(email) === mine);
  for (const mine of [false, true]) {
    one("account-switch", row(mine)).click();
    await until("the switch", () => activeRow() === row(mine), timeoutMs);
  }
  return {};
}

/**
 * From the click on the Memberships link to the end of the first frame that shows the
 * grid of `people` rows with its cells: rendered, and the main thread free again.
 */
async function openGrid(people, timeoutMs) {
  performance.clearMarks();
  const link = one("nav-memberships");
  const start = performance.now();
  link.click();
  for (;;) {
    await nextFrame();
    if (gridShown(people)) {
      const end = await afterRendering();
      const marks = Object.fromEntries(
        performance
          .getEntriesByType("mark")
          .map((m) => [m.name, m.startTime - start]),
      );
      return {
        ms: end - start,
        cells: document.querySelectorAll(CELLS).length,
        marks,
      };
    }
    check("the grid", start, timeoutMs);
  }
}

/**
 * `count` frames, one action per frame, run from requestAnimationFrame. Per frame: the
 * work (from the frame's rAF timestamp to a window message posted in its callback,
 * handled after the frame's style, layout and paint: everything the main thread did for
 * that frame, including the effects of the previous frame's action, such as the grid's
 * own scroll handling), the part of it that was script (up to the action's end or the
 * frame's last DOM change, whichever is later: a MutationObserver's callback runs right
 * after the app's microtask that changed the DOM), and the interval between consecutive
 * rAF timestamps.
 */
function frames(count, action) {
  return new Promise((resolve, reject) => {
    const work = [];
    const script = [];
    const intervals = [];
    let lastMutation = 0;
    const observer = new MutationObserver(() => {
      lastMutation = performance.now();
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    let previous = null;
    let done = 0;
    const frame = (timestamp) => {
      if (previous !== null) intervals.push(timestamp - previous);
      previous = timestamp;
      if (done === count) {
        observer.disconnect();
        resolve({ work, script, intervals });
        return;
      }
      try {
        action(done++);
      } catch (error) {
        observer.disconnect();
        reject(error);
        return;
      }
      const acted = performance.now();
      afterRendering().then((end) => {
        work.push(end - timestamp);
        script.push(Math.max(acted, lastMutation) - timestamp);
      });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** Back and forth along one axis, `step` pixels per frame. */
function scroller(grid, axis, step) {
  const property = axis === "y" ? "scrollTop" : "scrollLeft";
  const room = () =>
    axis === "y"
      ? grid.scrollHeight - grid.clientHeight
      : grid.scrollWidth - grid.clientWidth;
  let direction = 1;
  return () => {
    const next = grid[property] + direction * step;
    if (next > room() || next < 0) direction = -direction;
    grid[property] += direction * step;
  };
}

/**
 * Frame times of one pass: `idle` (nothing), `vertical` or `horizontal` scrolling by
 * `step` pixels a frame, or `toggle`: one cell clicked per frame, over `count / 2`
 * enabled cells in view, then each clicked again (nothing stays staged).
 */
async function measureFrames(kind, count, step) {
  const grid = one("membership-grid");
  grid.scrollTop = 0;
  grid.scrollLeft = 0;
  // The grid's accessible cells follow scrolling once it pauses (the painting at once):
  // wait for the cells of the top left corner, which the toggle pass clicks.
  await until(
    "the cells at the top left",
    () => grid.querySelector('[data-r="0"][data-c="0"]'),
    10_000,
  );
  await sleep(PASS_SETTLE_MS);
  await nextFrame();
  await nextFrame();
  let action = () => {};
  if (kind === "vertical") action = scroller(grid, "y", step);
  if (kind === "horizontal") action = scroller(grid, "x", step);
  if (kind === "toggle") {
    const ids = [...grid.querySelectorAll(CELLS)]
      .filter((cell) => cell.getAttribute("aria-disabled") !== "true")
      .map((cell) => cell.dataset.testid);
    const half = Math.floor(count / 2);
    if (ids.length < half)
      throw new Error(`only ${ids.length} enabled cells in view`);
    action = (i) => {
      const cell = one(ids[i % half]);
      if (!cell) throw new Error(`cell ${ids[i % half]} is gone`);
      cell.click();
    };
  }
  const result = await frames(count, action);
  const pending = one("pending-count");
  result.pending = pending ? pending.textContent.trim() : "";
  return result;
}
