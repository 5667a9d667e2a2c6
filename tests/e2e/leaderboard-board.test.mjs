// End-to-end: MM-OPERA and Gold in the unified leaderboard table. MM-OPERA judge files (there
// is no released MM-OPERA run in ../shared/data, so they are written in the released formats
// into a temp dir) and Gold score matrices (Gold Table 2 as a CSV, and the real OpenVLM matrix
// of ../shared/data) are picked and scored; the computed rows' cells equal the coglab CLI's
// JSON on the same files; sort, filters, the URL round trip (reload restores the view) and
// the CSV export compared cell by cell with the table shown. Screenshots light/dark,
// 1280 and 390 px wide.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, newPage, App, ROOT, cli, parseCsv } from './support.mjs';

const DATA = process.env.COGLAB_DATA ?? join(ROOT, '../shared/data');
const OPENVLM = join(DATA, 'openvlm/models.json');


const close = (a, b) => Math.abs(a - b) < 1e-9;

/**
 * One task's metadata and two models' judge files (holistic and process-reward), written by
 * hand-made rules so every run is the same: item k of model j scores (k + 3j) mod 5.
 */
function writeTask(dir, task, n) {
  const ica = task === 'ICA';
  const ids = Array.from({ length: n }, (_, k) => `${ica ? 'i' : 'r'}${k + 1}`);
  const meta = ids.map((id, k) => ({
    id, foldername: `${task.toLowerCase()}_${k + 1}`, domain: ['Nature', 'Art'][k % 2],
    type: ['Relation', 'Metaphor', 'Mutual Element'][k % 3], culture: 'Global', language: 'English',
    hop_count: 1 + (k % 3), perception: [['Visual Similarity', 'Semantic Object', 'Social Insight'][k % 3]],
    conception: [['Thematic Links', 'Causal Connections'][k % 2]], relation: 'x',
  }));
  const files = { metadata: join(dir, `${task}_metadata.json`) };
  writeFileSync(files.metadata, JSON.stringify(meta));
  for (const [j, model] of ['gpt-4o', 'qwen2-vl'].entries()) {
    const verdict = (k, r) => ({ score_judge: String((k + 3 * j + r) % 5), score_reason: 'x' });
    const hops = (k) => ({ 'S0 → S1': [((k + j) % 4) / 4, 1, (k + j) % 2], 'S1 → S2': [1, 0.5, 1] });
    const one = (f) => (ica ? [0, 1, 2, 3].map(f) : f(0));
    const regular = Object.fromEntries(ids.map((id, k) => [id, one((r) => verdict(k, r))]));
    const reasoning = Object.fromEntries(ids.map((id, k) => [id, one(() => (ica
      ? { path1: 'S0 → S1 → S2', path2: 'T0 → T1', hop_quality_path1: hops(k), hop_quality_path2: hops(k + 1), explanation: 'ok' }
      : { path: 'S0 → S1 → S2', hop_quality: hops(k), explanation: 'ok' }))]));
    files[model] = {
      regular: join(dir, `${model}_${task}_regular_scoring.json`),
      reasoning: join(dir, `${model}_${task}_reasoning_scoring.json`),
    };
    writeFileSync(files[model].regular, JSON.stringify(regular));
    writeFileSync(files[model].reasoning, JSON.stringify(reasoning));
  }
  return files;
}

/** Gold Table 2 (bundled) as a models × tasks CSV, without the printed Overall column. */
function goldCsv(dir) {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'public/data/gold.json'), 'utf8'));
  const t = bundle.tables.find((x) => x.id === 'gold-table2');
  const keep = t.columns.map((c, i) => [c, i]).filter(([c]) => c !== 'Overall');
  const lines = [['model', ...keep.map(([c]) => c)].join(',')];
  for (const r of t.rows) lines.push([r.label, ...keep.map(([, i]) => r.values[i])].join(','));
  const path = join(dir, 'gold-table2.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** A layers → Overall spec for the CLI. */
function spec(dir, name, layers) {
  const constructs = Object.fromEntries(Object.entries(layers).map(([l, tasks]) => [l, { indicators: tasks, mode: 'A' }]));
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({
    constructs, paths: [], second_order: { Overall: { constructs: Object.keys(layers), mode: 'A' } },
  }));
  return path;
}

/** Page object for one unified board (`stem` = mmopera or gold). */
class BoardPage {
  constructor(page, stem) { this.page = page; this.stem = stem; }
  /** Picks files, waits until all are staged, scores them. */
  async pick(paths) {
    await this.page.getByTestId('file-input').setInputFiles(paths);
    await this.page.waitForFunction((k) => document.querySelectorAll('[data-testid=staged-row]').length >= k, paths.length);
    await this.page.getByTestId('lb-score').click();
  }
  table() { return this.page.getByTestId(`${this.stem}-table`); }
  /** A row by model, kind and (optionally) the source in its badge's title. */
  row(model, kind, source) {
    let r = this.page.locator(`[data-testid=${this.stem}-${kind}-row][data-model="${model}"]`);
    if (source) r = r.filter({ has: this.page.locator(`.badge[title="${source}"]`) });
    return r;
  }
  /** data-col → data-value of a row. */
  async values(row) {
    await row.waitFor();
    return Object.fromEntries(await row.locator('td[data-value]').evaluateAll(
      (tds) => tds.map((td) => [td.dataset.col, Number(td.dataset.value)])));
  }
  /** Model names of the rows shown (of one kind, or all), in display order. */
  async models(kind) {
    const sel = kind ? `[data-testid=${this.stem}-${kind}-row]` : `[data-testid=${this.stem}-table] tbody tr[data-model]`;
    return this.page.locator(sel).evaluateAll((trs) => trs.map((tr) => tr.dataset.model));
  }
  /** Clicks a column's sort button. */
  async sort(col) { await this.table().locator(`th[data-col="${col}"] button.lb-sort`).click(); }
  /** The table as shown: header texts (Rank, Model, metrics) and each row's cells (rank,
   * model, kind, values), without the Paired rank column when there is one. */
  async shown() {
    const header = ['Rank', ...await this.table().locator('thead th[data-col]').evaluateAll((ths) => ths.map((th) => th.querySelector('button.lb-sort').textContent.replace(/[▲▼]/g, '').trim()))];
    const rows = await this.table().locator('tbody tr[data-model]').evaluateAll((trs) => trs.map((tr) => [
      tr.cells[0].textContent.trim(), tr.dataset.model, tr.dataset.kind,
      ...[...tr.querySelectorAll('td[data-col]')].map((td) => td.textContent.trim())]));
    return { header, rows };
  }
  /** Downloads the CSV export, parsed (RFC 4180). */
  async csv() {
    const [dl] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(`${this.stem}-csv`).click()]);
    assert.equal(dl.suggestedFilename(), `${this.stem}.csv`);
    return parseCsv(readFileSync(await dl.path(), 'utf8'));
  }
  /** Downloads the JSON export, parsed. */
  async json() {
    const [dl] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(`${this.stem}-json`).click()]);
    return JSON.parse(readFileSync(await dl.path(), 'utf8'));
  }
}


/**
 * The analysis export (issue 26, defect 15: Rank, Model, Kind, Source, then per metric its
 * value, n, ci_low, ci_high; missing values empty) in the table's shown layout, to compare
 * with `BoardPage.shown()`: an empty rank or value is "–" on screen ("ref" for a baseline's
 * rank), and a compact cell "v ± h" is compared on its value.
 */
function asShown(csv, shown) {
  // With paired ranks the export has a Paired rank column after Rank (not in `shown`).
  const o = csv[0][1] === 'Paired rank' ? 1 : 0;
  const metrics = (csv[0].length - 4 - o) / 4;
  assert.equal(metrics, shown.header.length - 2, 'four export columns per metric shown');
  const rows = csv.slice(1).map((r) => [
    r[0] === '' ? (r[2 + o] === 'baseline' ? 'ref' : '–') : r[0], r[1 + o], r[2 + o],
    ...Array.from({ length: metrics }, (_, k) => r[4 + o + 4 * k] === '' ? '–' : r[4 + o + 4 * k])]);
  const screen = shown.rows.map((r) => [r[0] === '–' && r[2] === 'baseline' ? 'ref' : r[0], r[1], r[2],
    ...r.slice(3).map((v) => v.split(' ± ')[0])]);
  return { rows, screen };
}

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('MM-OPERA board: computed rows equal coglab score mmopera; sort, filters, URL round trip, CSV export',
  async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const b = new BoardPage(page, 'mmopera');
    const dir = mkdtempSync(join(tmpdir(), 'coglab-board-mmopera-'));
    const ria = writeTask(dir, 'RIA', 12);
    const ica = writeTask(dir, 'ICA', 6);
    await app.goto('/leaderboard?b=mmopera');
    // The paper's rows before any file: Table 2 RIA (16 models) and the human baseline.
    await b.row('GPT-4o', 'reported').waitFor();
    assert.equal((await b.models('reported')).length, 16);
    assert.deepEqual(await b.models('baseline'), ['Human']);
    const gpt = await b.values(b.row('GPT-4o', 'reported'));
    // Table 2 RIA: 59.72, 10.89, 28.83, 17.94 (%); Table 3 RIA reasoning score 1.6068; the
    // RIA − ICA gap of SR from the two Tables 2: 59.72 − 58.26 = 1.46 points.
    const paper = { sr: 0.5972, hr4: 0.1089, hr3: 0.2883, dhr: 0.1794, sr_proc: 1.6068, gap: 0.0146 };
    assert.deepEqual(Object.keys(gpt).sort(), Object.keys(paper).sort());
    for (const [k, v] of Object.entries(paper)) assert.ok(close(gpt[k], v), `${k} ${gpt[k]} vs ${v}`);
    assert.equal(await b.row('GPT-4o', 'reported').locator('td[data-col=hr4]').innerText(), '10.89');

    const picked = [ria.metadata, ica.metadata];
    for (const t of [ria, ica]) for (const m of ['gpt-4o', 'qwen2-vl']) picked.push(t[m].regular, t[m].reasoning);
    await b.pick(picked);
    await b.row('qwen2-vl', 'computed').waitFor();
    const want = {};
    for (const m of ['gpt-4o', 'qwen2-vl']) {
      for (const [key, t] of [['ria', ria], ['ica', ica]]) {
        want[`${m}/${key}`] = cli(['score', 'mmopera', '--task', key, '--metadata', t.metadata,
          '--regular', t[m].regular, '--reasoning', t[m].reasoning, '--json']);
      }
    }
    const check = async (task) => {
      for (const m of ['gpt-4o', 'qwen2-vl']) {
        const got = await b.values(b.row(m, 'computed'));
        const w = want[`${m}/${task}`];
        assert.ok(close(got.sr, w.holistic.score_rate), `${m} ${task} SR ${got.sr} vs ${w.holistic.score_rate}`);
        assert.ok(close(got.hr4, w.holistic.hr4), `${m} ${task} HR-4`);
        assert.ok(close(got.hr3, w.holistic.hr3), `${m} ${task} HR-3`);
        assert.ok(close(got.dhr, w.holistic.delta_hr), `${m} ${task} ΔHR`);
        assert.ok(close(got.sr_proc, w.reasoning.mean_score), `${m} ${task} reasoning`);
        const text = await b.row(m, 'computed').locator('td[data-col=sr]').innerText();
        assert.equal(text, (w.holistic.score_rate * 100).toFixed(2));
        assert.equal(await b.row(m, 'computed').locator('td[data-col=sr_proc]').innerText(), w.reasoning.mean_score.toFixed(4));
      }
    };
    await check('ria');
    await app.screenshot('leaderboard-board-mmopera-light');

    // Sort by the reasoning score (best first), then ascending; missing values (GLM-4V has no
    // Table 3 score) stay last.
    await b.sort('sr_proc');
    await page.waitForURL(/s=sr_proc/);
    const column = (col) => b.table().locator(`tbody tr[data-model] td[data-col=${col}]`).evaluateAll(
      (tds) => tds.map((td) => (td.dataset.value === undefined ? undefined : Number(td.dataset.value))));
    let procs = await column('sr_proc');
    let present = procs.filter((v) => v !== undefined);
    // 9 Table 3 models and the two computed rows have a reasoning score.
    assert.equal(present.length, 11);
    assert.deepEqual(present, [...present].sort((x, y) => y - x));
    assert.ok(procs.slice(present.length).every((v) => v === undefined), 'missing values last');
    await b.sort('sr_proc');
    await page.waitForURL(/a=1/);
    procs = await column('sr_proc');
    present = procs.filter((v) => v !== undefined);
    assert.deepEqual(present, [...present].sort((x, y) => x - y));
    assert.ok(procs.slice(present.length).every((v) => v === undefined), 'missing values last ascending too');

    // Filters: computed rows only, then a text filter.
    await page.getByTestId('mmopera-kind-reported').uncheck();
    await page.getByTestId('mmopera-kind-baseline').uncheck();
    await page.waitForURL(/k=computed/);
    assert.deepEqual((await b.models()).sort(), ['gpt-4o', 'qwen2-vl']);
    await page.getByTestId('mmopera-filter').fill('qwen');
    await page.waitForURL(/q=qwen/);
    assert.deepEqual(await b.models(), ['qwen2-vl']);
    await page.getByTestId('mmopera-filter').fill('');
    await page.getByTestId('mmopera-kind-reported').check();
    await page.getByTestId('mmopera-kind-baseline').check();

    // ICA: the task switch is in the URL; the computed rows are the ICA scores.
    await page.getByTestId('mmopera-task-ica').check();
    await page.waitForURL(/t=ica/);
    await check('ica');
    const gptIca = await b.values(b.row('GPT-4o', 'reported'));
    assert.ok(close(gptIca.sr, 0.5826));

    // CSV export compared cell by cell with the table shown (after hiding a column, compact).
    await page.getByTestId('mmopera-columns').locator('summary').click();
    await page.getByTestId('mmopera-columns').locator('input[data-col=hr4]').uncheck();
    await page.getByTestId('mmopera-compact').check();
    await page.waitForURL(/c=1/);
    // The paired ranks of the ICA rows have arrived (the rank column shows them, as the export).
    await page.waitForFunction(() => document.querySelector('[data-testid=mmopera-rank-header]')?.innerText.includes('ICA:'));
    const shown = await b.shown();
    const csv = await b.csv();
    // The analysis export (issue 26, defect 15): per metric its value, n and 95% interval.
    const metric = (t) => [t, `${t} n`, `${t} ci_low`, `${t} ci_high`];
    // The ICA rows have paired ranks: a Paired rank column after Rank (issue 20).
    // The reasoning column names its decay setting, and the RIA − ICA gap follows (issue 23).
    const titles = ['SR', 'HR-3', 'ΔHR', 'Reasoning (code decay)', 'RIA − ICA'];
    assert.deepEqual(csv[0], ['Rank', 'Paired rank', 'Model', 'Kind', 'Source', ...titles.flatMap(metric)]);
    assert.deepEqual(shown.header.slice(2), titles);
    assert.equal(csv.length - 1, shown.rows.length);
    const { rows: exported, screen } = asShown(csv, shown);
    exported.forEach((r, i) => assert.deepEqual(r, screen[i], `row ${i}`));
    // No dash for a missing value: the reported rows have no interval or n, so empty cells.
    assert.ok(csv.slice(1).every((r) => !r.includes('–')));
    // And the computed cells in the export equal the CLI's, as shown (two decimals).
    const at = (name) => csv[0].indexOf(name);
    const q = csv.find((r) => r[at('Model')] === 'qwen2-vl');
    // Its paired rank is the one shown in the table's Paired rank column.
    const qtd = b.row('qwen2-vl', 'computed').locator('td.lb-rank');
    assert.equal(q[at('Paired rank')], (await qtd.innerText()).trim());
    // Compact mode on screen: "value ± half-width" of the core's 95% interval over items;
    // the export has the value, the number of verdicts and the interval's ends.
    assert.equal(q[at('SR')], (want['qwen2-vl/ica'].holistic.score_rate * 100).toFixed(2));
    assert.equal(Number(q[at('SR n')]), want['qwen2-vl/ica'].holistic.n);
    const qrow = b.row('qwen2-vl', 'computed').locator('td[data-col=sr]');
    const [lo, hi] = [Number(await qrow.getAttribute('data-ci-low')), Number(await qrow.getAttribute('data-ci-high'))];
    assert.ok(lo < want['qwen2-vl/ica'].holistic.score_rate && want['qwen2-vl/ica'].holistic.score_rate < hi);
    assert.deepEqual([q[at('SR ci_low')], q[at('SR ci_high')]], [(lo * 100).toFixed(2), (hi * 100).toFixed(2)]);
    const [, qhalf] = shown.rows.find((r) => r[1] === 'qwen2-vl')[3].split(' ± ');
    assert.equal(qhalf, ((hi - lo) / 2 * 100).toFixed(2));
    // The JSON export has the same cells, numbers as numbers and missing values as null.
    const json = await b.json();
    const qj = json.rows.find((r) => r.Model === 'qwen2-vl');
    assert.equal(qj.SR, Number(q[at('SR')]));
    assert.equal(qj['SR n'], want['qwen2-vl/ica'].holistic.n);
    const rep = json.rows.find((r) => r.Kind === 'reported');
    assert.equal(rep['SR n'], null);

    // URL round trip: reload restores the task, sort, hidden column and compact mode (the
    // computed rows are not kept across a reload; the reported rows show the same view).
    const view = async () => ({
      caption: await b.table().locator('caption').innerText(),
      cols: await b.table().locator('thead th[data-col]').evaluateAll((ths) => ths.map((t) => t.dataset.col)),
      sort: await b.table().locator('th[data-col=sr_proc]').getAttribute('aria-sort'),
      rows: await b.models('reported'),
      first: await b.table().locator('[data-testid=mmopera-reported-row] td[data-col=sr]').first().innerText(),
    });
    await page.getByTestId('mmopera-kind-computed').uncheck();
    await page.waitForURL(/k=reported/);
    const beforeReload = await view();
    assert.match(beforeReload.caption, /ICA/);
    assert.equal(beforeReload.sort, 'ascending');
    await page.reload();
    await page.getByTestId('main-nav').waitFor();
    await b.row('GPT-4o', 'reported').waitFor();
    assert.deepEqual(await view(), beforeReload);
    assert.match(page.url(), /b=mmopera/);
    await app.screenshot('leaderboard-board-mmopera-restored');
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page overflows horizontally by ${overflow}px`);
    await app.screenshot('leaderboard-board-mmopera-phone-light');
    assert.deepEqual(errors, []);
    await context.close();

    const dark = await newPage(env.browser, { colorScheme: 'dark' });
    const app2 = new App(dark.page, env.base);
    const b2 = new BoardPage(dark.page, 'mmopera');
    await app2.goto('/leaderboard?b=mmopera');
    await b2.pick(picked);
    await b2.row('gpt-4o', 'computed').waitFor();
    await app2.screenshot('leaderboard-board-mmopera-dark');
    await dark.page.setViewportSize({ width: 390, height: 844 });
    await app2.screenshot('leaderboard-board-mmopera-phone-dark');
    assert.deepEqual(dark.errors, []);
    await dark.context.close();
  });

test('Gold board: Table 2 and the real OpenVLM matrix give the weighted scores of coglab sem; sort, filter, URL, CSV',
  { skip: !existsSync(OPENVLM) && `${OPENVLM} absent` }, async () => {
    const { page, context, errors } = await newPage(env.browser);
    const app = new App(page, env.base);
    const b = new BoardPage(page, 'gold');
    const dir = mkdtempSync(join(tmpdir(), 'coglab-board-gold-'));
    const table2 = goldCsv(dir);
    const table2Spec = spec(dir, 'gold-spec.json', {
      Perception: ['Color', 'Count', 'OCR'],
      Memory: ['Artwork', 'Landmark', 'BMK'],
      Reasoning: ['Biology', 'CS', 'Economics', 'Electronics', 'Math'],
    });
    await app.goto('/leaderboard?b=gold');
    // Reported rows: the paper's Overall and the core's weighted scores of Table 2's accuracies.
    const want2 = cli(['sem', '--spec', table2Spec, table2, '--json']);
    // The weighted scores come from the worker a moment after the paper's figures.
    await b.row('GPT-4o', 'reported').locator('td[data-col=overall][data-value]').waitFor();
    const rep = await b.values(b.row('GPT-4o', 'reported'));
    assert.equal(rep.paper_overall, 165.7);
    assert.ok(close(rep.overall, want2.overall_scores['GPT-4o'].overall), `${rep.overall}`);

    await b.pick([table2, OPENVLM]);
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
    const wantV = cli(['sem', '--spec', spec(dir, 'openvlm-spec.json', layers), OPENVLM, '--json']);
    for (const model of ['GPT-4o', 'InternVL3 78B', 'Qwen2.5-VL 7B']) {
      const got = await b.values(b.row(model, 'computed', 'computed from gold-table2.csv'));
      const w = want2.overall_scores[model];
      assert.ok(close(got.overall, w.overall), `${model} overall ${got.overall} vs ${w.overall}`);
      for (const l of ['Perception', 'Memory', 'Reasoning']) assert.ok(close(got[l], w.by_construct[l]), `${model} ${l}`);
      assert.equal(got.paper_overall, undefined);
    }
    const vlmModels = Object.keys(wantV.overall_scores);
    assert.ok(vlmModels.length > 200, `${vlmModels.length}`);
    // The board draws its first 50 rows of 300: all of them, on request.
    await page.getByTestId('gold-all-rows').filter({ hasText: /^Show all 3\d\d$/ }).click();
    for (const model of ['LLaVA-v1-7B', 'InstructBLIP-7B', vlmModels[vlmModels.length - 1]]) {
      const got = await b.values(b.row(model, 'computed', 'computed from models.json'));
      const w = wantV.overall_scores[model];
      assert.ok(close(got.overall, w.overall), `${model} overall`);
      assert.ok(close(got.Perception, w.by_construct.Perception), `${model} Perception`);
      assert.ok(close(got.Reasoning, w.by_construct.Reasoning), `${model} Reasoning`);
      assert.equal(got.Memory, undefined, 'OpenVLM has no Memory layer here');
    }
    await page.getByTestId('gold-board').screenshot({ path: join(ROOT, 'tests/e2e/screenshots/leaderboard-board-gold-table.png') });

    // Sort by Perception (best first); text filter; then the reported rows only.
    await b.sort('Perception');
    await page.waitForURL(/s=Perception/);
    await page.getByTestId('gold-filter').fill('internvl3');
    await page.waitForURL(/q=internvl3/);
    const shownModels = await b.models();
    assert.ok(shownModels.length >= 8 && shownModels.every((m) => m.toLowerCase().includes('internvl3')), shownModels.join());
    const perc = await b.table().locator('tbody tr[data-model] td[data-col=Perception]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    assert.deepEqual(perc, [...perc].sort((x, y) => y - x));
    // The CSV export equals the table shown, cell by cell.
    const shown = await b.shown();
    const csv = await b.csv();
    const cols = ['Overall', 'Perception', 'Memory', 'Reasoning', 'Plain mean', 'Overall (paper)'];
    // Gold rows have no item data: no Paired rank column.
    assert.deepEqual(csv[0], ['Rank', 'Model', 'Kind', 'Source', ...cols.flatMap((t) => [t, `${t} n`, `${t} ci_low`, `${t} ci_high`])]);
    assert.equal(csv.length - 1, shown.rows.length);
    const { rows: exported, screen } = asShown(csv, shown);
    exported.forEach((r, i) => assert.deepEqual(r, screen[i], `row ${i}`));
    const i78 = csv.find((r) => r[1] === 'InternVL3 78B' && r[2] === 'computed');
    assert.equal(i78[4 + 4], want2.overall_scores['InternVL3 78B'].by_construct.Perception.toFixed(2));
    await app.screenshot('leaderboard-board-gold-light');

    // URL round trip on the reported rows.
    await page.getByTestId('gold-kind-computed').uncheck();
    await page.getByTestId('gold-columns').locator('summary').click();
    await page.getByTestId('gold-columns').locator('input[data-col=plain_mean]').uncheck();
    await page.waitForURL(/hide=plain_mean/);
    const view = async () => ({
      cols: await b.table().locator('thead th[data-col]').evaluateAll((ths) => ths.map((t) => t.dataset.col)),
      rows: await b.models(),
      ranks: await b.table().locator('tbody tr[data-model] td[data-rank]').evaluateAll((tds) => tds.map((td) => td.dataset.rank)),
      filter: await page.getByTestId('gold-filter').inputValue(),
    });
    const beforeReload = await view();
    assert.deepEqual(beforeReload.rows.slice().sort(), ['InternVL3 2B', 'InternVL3 38B', 'InternVL3 78B', 'InternVL3 9B']);
    await page.reload();
    await page.getByTestId('main-nav').waitFor();
    // The weighted scores of Table 2 come from the worker a moment after the paper's figures.
    await b.row('InternVL3 78B', 'reported').locator('td[data-col=overall][data-value]').waitFor();
    assert.deepEqual(await view(), beforeReload);
    await page.setViewportSize({ width: 390, height: 844 });
    await app.screenshot('leaderboard-board-gold-phone-light');
    assert.deepEqual(errors, []);
    await context.close();

    const dark = await newPage(env.browser, { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
    const app2 = new App(dark.page, env.base);
    const b2 = new BoardPage(dark.page, 'gold');
    await app2.goto('/leaderboard?b=gold');
    await b2.pick([table2]);
    await b2.row('GPT-4o', 'computed').waitFor();
    await app2.screenshot('leaderboard-board-gold-phone-dark');
    await dark.page.setViewportSize({ width: 1280, height: 800 });
    await app2.screenshot('leaderboard-board-gold-dark');
    assert.deepEqual(dark.errors, []);
    await dark.context.close();
  });

test('MM-IQ board: a VLMEvalKit _acc.csv summary is a computed row marked as a summary, without interval', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  const dir = mkdtempSync(join(tmpdir(), 'coglab-board-acc-'));
  // Hand-made summary: Overall 26.54%, two paradigms given, the others absent.
  const acc = join(dir, 'Qwen2-VL-7B_MMIQ_acc.csv');
  writeFileSync(acc, '"split","Overall","Logical Operation","Mathematical"\n"none","0.2654","0.3","0.2125"\n');
  await app.goto('/leaderboard');
  await page.getByTestId('file-input').setInputFiles([acc]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=staged-row]').length >= 1);
  await page.getByTestId('lb-score').click();
  const row = page.locator('[data-testid=mmiq-computed-row]');
  await row.waitFor();
  assert.equal(await row.count(), 1);
  const cells = Object.fromEntries(await row.locator('td[data-col]').evaluateAll((tds) => tds.map((td) =>
    [td.dataset.col, [td.dataset.value, td.dataset.ciLow, td.textContent]])));
  assert.deepEqual(cells.mean, ['0.2654', undefined, '26.54']);
  assert.deepEqual(cells['Logical Operation'], ['0.3', undefined, '30.00']);
  assert.deepEqual(cells.Mathematical, ['0.2125', undefined, '21.25']);
  assert.deepEqual(cells['2D-Geometry'], [undefined, undefined, '–']);
  assert.equal(await row.locator('.badge').getAttribute('title'), 'VLMEvalKit summary: Qwen2-VL-7B_MMIQ_acc.csv');
  assert.match(await row.locator('td[data-col=mean]').getAttribute('title'), /no interval/);
  // No item-level data: no model page or comparison for it.
  await page.getByText('Drop MM-IQ prediction files with the answer key above').waitFor();
  await row.screenshot({ path: join(ROOT, 'tests/e2e/screenshots/leaderboard-board-mmiq-acc-row.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
