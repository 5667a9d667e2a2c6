// End-to-end: MM-OPERA files on the leaderboard. There is no released MM-OPERA run in
// ../shared/data, so the test writes two models' files in the released formats (answers,
// holistic and process-reward judge outputs, metadata) into a temp dir with a seeded
// generator, picks them with a bad file among them, and checks the numbers shown against the
// coglab CLI's JSON on the same files (`coglab score mmopera`, `coglab agree`). Charts, PNG
// download, the comparison, and screenshots light/dark at 1280 and 390 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, cli } from './support.mjs';


/** A small seeded generator (mulberry32), so the files are the same on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PERCEPTION = ['Visual Similarity', 'Semantic Object', 'Contextual Sensory Cues',
  'Scene Contextualization', 'Abstract Interpretation', 'Social Insight', 'Relational Perception'];
const CONCEPTION = ['Functional Links', 'Causal Connections', 'Thematic Links', 'Cultural Reference',
  'Hierarchical Association', 'Analogical Reasoning'];

/** Writes one task's metadata and the files of each model; returns their paths. */
function writeTask(dir, task, n, models, seed) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const prefix = task === 'RIA' ? 'r' : 'i';
  const ids = Array.from({ length: n }, (_, k) => `${prefix}${k + 1}`);
  const meta = ids.map((id, k) => ({
    id,
    foldername: `${task.toLowerCase()}_${String(k + 1).padStart(4, '0')}`,
    domain: pick(['Nature', 'Culture', 'Science', 'Art']),
    type: pick(['Relation', 'Metaphor', 'Mutual Element']),
    culture: pick(['Global', 'Chinese', 'Japanese']),
    language: pick(['English', 'Chinese']),
    hop_count: 1 + Math.floor(r() * 4),
    perception: [pick(PERCEPTION), pick(PERCEPTION)].filter((v, i, a) => a.indexOf(v) === i),
    conception: [pick(CONCEPTION)],
    relation: 'a shared idea',
  }));
  const files = { metadata: join(dir, `${task}_metadata.json`) };
  writeFileSync(files.metadata, JSON.stringify(meta, null, 1));
  const rotations = task === 'RIA' ? 1 : 4;
  for (const [model, skill] of models) {
    const verdict = () => ({
      score_judge: String(Math.max(0, Math.min(4, Math.round(skill * 4 + (r() - 0.5) * 3)))),
      score_reason: 'judged',
    });
    const hops = () => {
      const q = {};
      const len = 1 + Math.floor(r() * 3);
      for (let h = 0; h < len; h++) {
        q[`S${h} → S${h + 1}`] = [Number(r().toFixed(2)), Number(r().toFixed(2)), r() < skill ? 1 : 0];
      }
      return q;
    };
    const one = (f) => (rotations === 1 ? f() : Array.from({ length: 4 }, f));
    const regular = Object.fromEntries(ids.map((id) => [id, one(verdict)]));
    const reasoning = Object.fromEntries(ids.map((id) => [id, one(() => (rotations === 1
      ? { path: 'S0 → S1', hop_quality: hops(), explanation: 'ok' }
      : { path1: 'S0 → S1', path2: 'T0 → T1', hop_quality_path1: hops(), hop_quality_path2: hops(), explanation: 'ok' }))]));
    const answers = Object.fromEntries(ids.map((id) => [id, one(() => `An answer about ${id}.`)]));
    const base = join(dir, `${model}_${task}`);
    files[model] = {
      regular: `${base}_regular_scoring.json`,
      reasoning: `${base}_reasoning_scoring.json`,
      answers: `${base}_results.json`,
    };
    writeFileSync(files[model].regular, JSON.stringify(regular, null, 1));
    writeFileSync(files[model].reasoning, JSON.stringify(reasoning, null, 1));
    writeFileSync(files[model].answers, JSON.stringify(answers, null, 1));
  }
  return files;
}

/** Picks files, waits until all are staged (format detected, model guessed), scores them. */
async function pick(page, paths) {
  await page.getByTestId('file-input').setInputFiles(paths);
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, paths.length);
  await page.getByTestId('lb-score').click();
}

/** Page-object helpers for the MM-OPERA tab. */
class Opera {
  constructor(page) { this.page = page; }
  async pickFiles(paths) { await pick(this.page, paths); }
  async waitFiles(n) {
    await this.page.waitForFunction((k) => document.querySelectorAll('[data-testid=lb-files] li').length >= k, n);
  }
  /** `{ "ria-sr": value, ... }` of a model's computed rows in the table (RIA, then ICA). */
  async values(model) {
    const out = {};
    for (const task of ['ria', 'ica']) {
      await this.task(task);
      const row = this.page.locator(`[data-testid=mmopera-computed-row][data-model="${model}"]`);
      await row.waitFor();
      const cells = await row.locator('td[data-col]').evaluateAll((tds) => tds.map((td) => [td.dataset.col, td.dataset.value]));
      for (const [k, v] of cells) if (v !== undefined) out[`${task}-${k}`] = Number(v);
    }
    return out;
  }
  /** Shows the table of a task (`ria` or `ica`). */
  async task(task) {
    await this.page.getByTestId(`mmopera-task-${task}`).check();
    await this.page.waitForFunction((t) => document.querySelector('[data-testid=mmopera-table] caption')?.textContent.includes(t), task.toUpperCase());
  }
  /** Computed model names in display order. */
  async models() {
    return this.page.locator('[data-testid=mmopera-computed-row]').evaluateAll((trs) => trs.map((tr) => tr.dataset.model));
  }
}

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const close = (a, b) => Math.abs(a - b) < 1e-9;

test('MM-OPERA files scored in the browser equal coglab score mmopera; a bad file fails alone; charts, comparison',
  async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const opera = new Opera(page);
    const dir = mkdtempSync(join(tmpdir(), 'coglab-mmopera-'));
    const models = [['gpt-4o', 0.7], ['qwen2-vl', 0.45]];
    const ria = writeTask(dir, 'RIA', 40, models, 7);
    const ica = writeTask(dir, 'ICA', 16, models, 8);
    const bad = join(dir, 'broken_ICA_regular_scoring.json');
    writeFileSync(bad, '{\n  "i1": [{"score_judge": "3"}],\n  "i2": [{"score_judge": }]\n}\n');
    const picked = [ria.metadata, ica.metadata, bad];
    for (const t of [ria, ica]) {
      for (const [m] of models) picked.push(t[m].regular, t[m].reasoning, t[m].answers);
    }
    await app.goto('/leaderboard?b=mmopera');
    await opera.pickFiles(picked);
    await opera.waitFiles(picked.length);
    const panel = page.getByTestId('error-panel').filter({ hasText: 'broken_ICA_regular_scoring.json' });
    await panel.waitFor();
    assert.match(await panel.innerText(), /line 3/);
    await page.locator('[data-testid=mmopera-computed-row]').first().waitFor();
    // Sorted by RIA SR, best first.
    assert.deepEqual(await opera.models(), ['gpt-4o', 'qwen2-vl']);

    const want = {};
    for (const [m] of models) {
      want[m] = {};
      for (const [key, t] of [['ria', ria], ['ica', ica]]) {
        want[m][key] = cli(['score', 'mmopera', '--task', key, '--metadata', t.metadata,
          '--regular', t[m].regular, '--reasoning', t[m].reasoning, '--answers', t[m].answers, '--json']);
      }
      const got = await opera.values(m);
      for (const key of ['ria', 'ica']) {
        const h = want[m][key].holistic;
        const p = want[m][key].reasoning;
        assert.ok(close(got[`${key}-sr`], h.score_rate), `${m} ${key} SR ${got[`${key}-sr`]} vs ${h.score_rate}`);
        assert.ok(close(got[`${key}-hr4`], h.hr4), `${m} ${key} HR-4`);
        assert.ok(close(got[`${key}-hr3`], h.hr3), `${m} ${key} HR-3`);
        assert.ok(close(got[`${key}-dhr`], h.delta_hr), `${m} ${key} ΔHR`);
        assert.ok(close(got[`${key}-sr_proc`], p.mean_score), `${m} ${key} reasoning`);
      }
    }
    // Shown text: SR as a percentage with two decimals.
    await opera.task('ria');
    const srText = await page.locator('[data-testid=mmopera-computed-row][data-model="gpt-4o"] td[data-col=sr]').innerText();
    assert.match(srText, /^\d+\.\d\d$/);
    assert.ok(Math.abs(Number(srText) - want['gpt-4o'].ria.holistic.score_rate * 100) <= 0.005 + 1e-9, srText);

    // Sorting by ICA reasoning, best first, then ascending.
    await opera.task('ica');
    const sortIca = page.locator('[data-testid=mmopera-table] th[data-col=sr_proc] button.lb-sort');
    await sortIca.click();
    const byIca = Object.entries(want).sort((a, b) => b[1].ica.reasoning.mean_score - a[1].ica.reasoning.mean_score).map(([m]) => m);
    assert.deepEqual(await opera.models(), byIca);
    await sortIca.click();
    assert.deepEqual(await opera.models(), [...byIca].reverse());
    await opera.task('ria');

    // Breakdowns: every dimension's SR equals the CLI's.
    const box = page.locator('[data-testid=mmopera-breakdown][data-model="gpt-4o"][data-task=ria]');
    await box.locator('summary').click();
    const by = want['gpt-4o'].ria.holistic.by;
    for (const [dim, groups] of [['l1', by.l1], ['l3', by.l3], ['hop_count', by.hop_count], ['type', by.type],
      ['language', by.language], ['culture', by.culture], ['domain', by.domain], ['l2', by.l2]]) {
      const cells = await box.locator(`table[data-dimension="${dim}"] tbody tr`).evaluateAll((trs) => trs.map((tr) =>
        [tr.dataset.group, Number(tr.querySelector('td[data-key=sr]')?.dataset.value)]));
      assert.equal(cells.length, Object.keys(groups).length, dim);
      for (const [g, v] of cells) assert.ok(close(v, groups[g].score_rate), `${dim} ${g}`);
    }
    const pby = want['gpt-4o'].ria.reasoning.by.hop_count;
    const hop1 = await box.locator('table[data-dimension=hop_count] tr[data-group="1"] td[data-key=sr_proc]').getAttribute('data-value');
    assert.ok(close(Number(hop1), pby['1'].mean_score));

    // Charts: drawn (non-blank canvases) and downloadable as PNG.
    for (const id of ['mmopera-radar', 'mmopera-hops', 'mmopera-histogram']) {
      const canvas = page.getByTestId(id);
      await canvas.waitFor();
      const inked = await canvas.evaluate((c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const colours = new Set();
        for (let k = 0; k < d.length; k += 4 * 97) colours.add(`${d[k]},${d[k + 1]},${d[k + 2]}`);
        return colours.size;
      });
      assert.ok(inked > 3, `${id} looks blank (${inked} colours)`);
    }
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('mmopera-hops-figure').getByTestId('chart-download').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'mmopera-hops.png');
    await app.screenshot('leaderboard-mmopera-light');

    // Comparison of the two models on RIA, against coglab agree on their judge files.
    await page.getByTestId('mmopera-compare-a').selectOption({ label: 'gpt-4o' });
    await page.getByTestId('mmopera-compare-b').selectOption({ label: 'qwen2-vl' });
    await page.getByTestId('mmopera-compare-run').click();
    const diff = page.getByTestId('mmopera-compare-diff');
    await diff.waitFor();
    const agree = cli(['agree', ria['gpt-4o'].regular, ria['qwen2-vl'].regular, '--json']);
    const est = Number(await diff.getAttribute('data-estimate'));
    const [low, high] = [Number(await diff.getAttribute('data-low')), Number(await diff.getAttribute('data-high'))];
    // Every verdict is valid, one per item: the SR difference is the mean score difference / 4.
    assert.ok(close(est, agree.paired_test.mean_diff / 4), `${est} vs ${agree.paired_test.mean_diff / 4}`);
    assert.ok(close(est, want['gpt-4o'].ria.holistic.score_rate - want['qwen2-vl'].ria.holistic.score_rate));
    assert.ok(low <= est && est <= high && high - low > 0);
    const table = await page.getByTestId('mmopera-compare-table').locator('td.num').evaluateAll((tds) =>
      tds.map((td) => [Number(td.dataset.a), Number(td.dataset.b), Number(td.textContent)]));
    const total = table.reduce((s, [, , n]) => s + n, 0);
    const same = table.filter(([a, b]) => a === b).reduce((s, [, , n]) => s + n, 0);
    assert.equal(total, agree.n);
    assert.ok(close(same / total, agree.exact_match));
    await page.getByTestId('mmopera-comparison').screenshot({ path: join(ROOT, 'tests/e2e/screenshots/leaderboard-mmopera-compare.png') });

    // Phone width, then dark mode.
    await page.setViewportSize({ width: 390, height: 844 });
    // Charts are redrawn at the width shown, so their text keeps its size on a phone.
    await page.waitForFunction(() => document.querySelector('[data-testid=mmopera-hops]').width < 400);
    await app.screenshot('leaderboard-mmopera-phone-light');
    assert.deepEqual(errors, []);
    await context.close();

    const dark = await newPage(env.browser, { colorScheme: 'dark' });
    const app2 = new App(dark.page, env.base);
    const opera2 = new Opera(dark.page);
    await app2.goto('/leaderboard?b=mmopera');
    await opera2.pickFiles(picked.filter((p) => p !== bad));
    await dark.page.getByTestId('mmopera-histogram').waitFor();
    await opera2.task('ica');
    await dark.page.waitForTimeout(200);
    await app2.screenshot('leaderboard-mmopera-dark');
    await dark.page.setViewportSize({ width: 390, height: 844 });
    await app2.screenshot('leaderboard-mmopera-phone-dark');
    assert.deepEqual(dark.errors, []);
    await dark.context.close();
  });

/** Gold Table 2 (bundled) as a models × tasks CSV, without the printed Overall column. */
function goldCsv(dir) {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'public/data/gold.json'), 'utf8'));
  const t = bundle.tables.find((x) => x.id === 'gold-table2');
  const keep = t.columns.map((c, i) => [c, i]).filter(([c]) => c !== 'Overall');
  const lines = [['model', ...keep.map(([c]) => c)].join(',')];
  for (const r of t.rows) lines.push([r.label, ...keep.map(([, i]) => (r.values[i] ?? 'NA'))].join(','));
  const path = join(dir, 'gold-table2.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const values = Object.fromEntries(t.rows.map((r) => [r.label, keep.map(([, i]) => r.values[i])]));
  return { path, values };
}

/** A layers → Overall spec, written by hand for the CLI. */
function spec(dir, name, layers) {
  const constructs = Object.fromEntries(Object.entries(layers).map(([l, tasks]) => [l, { indicators: tasks, mode: 'A' }]));
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({
    constructs, paths: [], second_order: { Overall: { constructs: Object.keys(layers), mode: 'A' } },
  }));
  return path;
}

/** data-value of a computed Gold row's cells in the table, by matrix file and model. */
async function goldValues(page, file, model) {
  const row = page.locator(`[data-testid=gold-computed-row][data-model="${model}"]`)
    .filter({ has: page.locator(`.badge[title="computed from ${file}"]`) });
  await row.waitFor();
  const cells = await row.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => [td.dataset.col, Number(td.dataset.value)]));
  return Object.fromEntries(cells);
}

const OPENVLM = join(process.env.COGLAB_DATA ?? join(ROOT, '../shared/data'), 'openvlm/models.json');

test('Gold: a score matrix gets the weighted overall and layer scores of coglab sem; OpenVLM by assignment',
  async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const dir = mkdtempSync(join(tmpdir(), 'coglab-gold-'));
    const gold = goldCsv(dir);
    const goldSpec = spec(dir, 'gold-spec.json', {
      Perception: ['Color', 'Count', 'OCR'],
      Memory: ['Artwork', 'Landmark', 'BMK'],
      Reasoning: ['Biology', 'CS', 'Economics', 'Electronics', 'Math'],
    });
    await app.goto('/leaderboard?b=gold');
    const picks = [gold.path, ...(existsSync(OPENVLM) ? [OPENVLM] : [])];
    await pick(page, picks);
    await page.locator('[data-testid=gold-matrix][data-file="gold-table2.csv"] [data-testid=gold-summary]').waitFor();
    const want = cli(['sem', '--spec', goldSpec, gold.path, '--json']);
    for (const model of ['GPT-4o', 'InternVL3 78B', 'Qwen2.5-VL 7B']) {
      const got = await goldValues(page, 'gold-table2.csv', model);
      const w = want.overall_scores[model];
      assert.ok(close(got.overall, w.overall), `${model} overall ${got.overall} vs ${w.overall}`);
      for (const l of ['Perception', 'Memory', 'Reasoning']) assert.ok(close(got[l], w.by_construct[l]), `${model} ${l}`);
      // The plain mean by hand from the CSV.
      const vals = gold.values[model];
      assert.equal(vals.length, 11);
      const mean = vals.reduce((s, v) => s + v, 0) / vals.length;
      assert.ok(Math.abs(got.plain_mean - mean) < 1e-9, `${model} plain mean ${got.plain_mean} vs ${mean}`);
    }
    await app.screenshot('leaderboard-gold-light');

    if (existsSync(OPENVLM)) {
      const block = page.locator('[data-testid=gold-matrix][data-file="models.json"]');
      await block.getByTestId('gold-message').waitFor();
      const layers = {
        Perception: ['MMBench_V11', 'MMStar', 'OCRBench', 'HallusionBench'],
        Reasoning: ['MMMU_VAL', 'MathVista', 'AI2D', 'MMVet'],
      };
      for (const [l, tasks] of Object.entries(layers)) {
        for (const t of tasks) await block.locator(`select[data-task="${t}"]`).selectOption(l);
      }
      await block.getByTestId('gold-score').click();
      await block.getByTestId('gold-summary').waitFor();
      const w = cli(['sem', '--spec', spec(dir, 'openvlm-spec.json', layers), OPENVLM, '--json']);
      // The board draws its first 50 rows of 300: all of them, on request.
      await page.getByTestId('gold-all-rows').filter({ hasText: /^Show all 3\d\d$/ }).click();
      for (const model of ['LLaVA-v1-7B', 'InstructBLIP-7B']) {
        const got = await goldValues(page, 'models.json', model);
        assert.ok(close(got.overall, w.overall_scores[model].overall), `${model} overall`);
        assert.ok(close(got.Perception, w.overall_scores[model].by_construct.Perception), `${model} Perception`);
      }
      await page.getByTestId('gold-table').screenshot({ path: join(ROOT, 'tests/e2e/screenshots/leaderboard-gold-openvlm.png') });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await app.screenshot('leaderboard-gold-phone-light');
    assert.deepEqual(errors, []);
    await context.close();

    const dark = await newPage(env.browser, { colorScheme: 'dark' });
    const app2 = new App(dark.page, env.base);
    await app2.goto('/leaderboard?b=gold');
    await pick(dark.page, [gold.path]);
    await dark.page.locator('[data-testid=gold-computed-row]').first().waitFor();
    await app2.screenshot('leaderboard-gold-dark');
    await dark.page.setViewportSize({ width: 390, height: 844 });
    await app2.screenshot('leaderboard-gold-phone-dark');
    assert.deepEqual(dark.errors, []);
    await dark.context.close();
  });
