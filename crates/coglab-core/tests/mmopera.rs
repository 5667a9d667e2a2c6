//! MM-OPERA integration tests on the hand-made RIA and ICA file sets in
//! `tests/fixtures/mmopera/`, written in the formats of the released evaluation code. Every
//! expected number is worked out by hand below. The RIA holistic numbers were also checked
//! against a line-by-line Python transcription of `analyze_regular_judge` /
//! `analyze_reasoning_judge` from MM-OPERA's released `evaluation/RIA/RIA_stat.py` run on the
//! same files (its printed values are quoted where used).

use approx::assert_relative_eq;
use coglab_core::mmopera::detect::{detect, FileKind};
use coglab_core::mmopera::files::{Answers, ReasoningScores, RegularScores};
use coglab_core::mmopera::metadata::Metadata;
use coglab_core::mmopera::score::{
    score, DecayExponent, IcaAverage, InvalidHops, InvalidScores, LabelCounting, Report,
    ScoreInput, ScoreOptions,
};
use coglab_core::mmopera::validate::{holistic_agreement, order_bias, process_agreement};
use coglab_core::mmopera::Task;

macro_rules! fixture {
    ($path:literal) => {
        (
            $path.rsplit('/').next().unwrap(),
            &include_bytes!(concat!("fixtures/mmopera/", $path))[..],
        )
    };
}

fn meta(f: (&str, &[u8])) -> Metadata {
    Metadata::parse(f.0, f.1).unwrap()
}
fn regular(f: (&str, &[u8])) -> RegularScores {
    RegularScores::parse(f.0, f.1).unwrap()
}
fn reasoning(f: (&str, &[u8])) -> ReasoningScores {
    ReasoningScores::parse(f.0, f.1).unwrap()
}

struct Ria {
    meta: Metadata,
    meta_csv: Metadata,
    answers: Answers,
    gpt: RegularScores,
    deepseek: RegularScores,
    swapped: RegularScores,
    human: RegularScores,
    gpt_r: ReasoningScores,
    deepseek_r: ReasoningScores,
}

fn ria() -> Ria {
    let a = fixture!("ria/modelx_RIA_results.json");
    Ria {
        meta: meta(fixture!("ria/metadata.json")),
        meta_csv: meta(fixture!("ria/metadata.csv")),
        answers: Answers::parse(a.0, a.1).unwrap(),
        gpt: regular(fixture!("ria/modelx_RIA_regular_scoring.json")),
        deepseek: regular(fixture!("ria/modelx_RIA_regular_scoring_deepseek.json")),
        swapped: regular(fixture!("ria/modelx_RIA_regular_scoring_swapped.json")),
        human: regular(fixture!("ria/human_RIA_rescore.json")),
        gpt_r: reasoning(fixture!("ria/modelx_RIA_reasoning_scoring.json")),
        deepseek_r: reasoning(fixture!("ria/modelx_RIA_reasoning_scoring_deepseek.json")),
    }
}

fn run(input: ScoreInput<'_>, options: &ScoreOptions) -> Report {
    score(&input, options).unwrap()
}

// The RIA set: 6 items r1..r6 in the metadata; the GPT-4o judge scores
// r1 4, r2 3, r3 2, r4 1, r5 "N/A" (invalid), r6 4, r7 3 (r7 is not in the metadata).
//
// | id | domain  | type           | culture  | hop | L-3 labels                                         |
// | r1 | Nature  | Relation       | Global   | 2   | Visual Similarity, Semantic Object, Functional Links |
// | r2 | Nature  | Metaphor       | Global   | 3   | Abstract Interpretation, Analogical R., Hierarchical A. |
// | r3 | Culture | Mutual Element | Chinese  | 1   | Cultural Reference                                  |
// | r4 | Culture | Relation       | Chinese  | 2   | Scene Contextualization, Thematic Links, Cultural R. |
// | r5 | Science | Mutual Element | Global   | 4   | Visual Similarity, Causal Connections               |
// | r6 | Science | Relation       | Japanese | 2   | Social Insight, Relational Perception               |

#[test]
fn ria_holistic_single_judge() {
    let f = ria();
    let report = run(
        ScoreInput {
            task: Task::Ria,
            metadata: &f.meta,
            regular: vec![&f.gpt],
            reasoning: vec![],
            answers: Some(&f.answers),
        },
        &ScoreOptions::default(),
    );
    let h = report.holistic.unwrap();
    // N = 7 entries (r5 counts 0 and stays in N). Σ = 4+3+2+1+0+4+3 = 17.
    // SR = 17/28 = 0.607142857 (released script: 0.6071428571428571).
    assert_eq!(h.n, 7);
    assert_eq!(h.items, 7);
    assert_relative_eq!(h.score_rate, 17.0 / 28.0, max_relative = 1e-12);
    assert_relative_eq!(h.score_rate, 0.607_142_857_142_857_1, max_relative = 1e-12);
    // HR-3 = #{r1, r2, r6, r7}/7 = 4/7; HR-4 = #{r1, r6}/7 = 2/7; ΔHR = 2/7.
    assert_relative_eq!(h.hr3, 4.0 / 7.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr4, 2.0 / 7.0, max_relative = 1e-12);
    assert_relative_eq!(h.delta_hr, 2.0 / 7.0, max_relative = 1e-12);
    // Valid scores: 0 → none, 1 → r4, 2 → r3, 3 → r2, r7, 4 → r1, r6; r5 is invalid.
    // (Released shares: 0, 1/7, 1/7, 2/7, 2/7.)
    let dist: Vec<usize> = h.distribution.values().copied().collect();
    assert_eq!(dist, [0, 1, 1, 2, 2]);
    assert_eq!(h.invalid, 1);
    assert_eq!(h.missing_metadata, ["r7"]);
    assert_eq!(h.warnings.len(), 1);
    assert_eq!(h.warnings[0].field.as_deref(), Some("r5.score_judge"));

    // Breakdowns over valid verdicts with metadata (r5 invalid, r7 unknown are in none):
    // domain Nature r1 4 + r2 3 = 7/8; Culture r3 2 + r4 1 = 3/8; Science r6 4 = 4/4.
    let by = &h.by;
    assert_relative_eq!(by.domain["Nature"].score_rate, 0.875);
    assert_relative_eq!(by.domain["Culture"].score_rate, 0.375);
    assert_relative_eq!(by.domain["Science"].score_rate, 1.0);
    assert_eq!(by.domain["Science"].n, 1);
    // culture: Global r1, r2 = 7/8; Chinese 3/8; Japanese 1.
    assert_relative_eq!(by.culture["Global"].score_rate, 0.875);
    assert_relative_eq!(by.culture["Japanese"].score_rate, 1.0);
    // type: Relation r1 4, r4 1, r6 4 = 9/12; Metaphor r2 = 3/4; Mutual Element r3 = 2/4.
    assert_relative_eq!(by.kind["Relation"].score_rate, 0.75);
    assert_eq!(by.kind["Relation"].n, 3);
    assert_relative_eq!(by.kind["Metaphor"].score_rate, 0.75);
    assert_relative_eq!(by.kind["Mutual Element"].score_rate, 0.5);
    assert_relative_eq!(by.language["Chinese"].score_rate, 0.375);
    // hop count: "1" r3 = 0.5; "2" r1, r4, r6 = 9/12; "3" r2 = 0.75; "4" only r5 → absent.
    assert_relative_eq!(by.hop_count["1"].score_rate, 0.5);
    assert_relative_eq!(by.hop_count["2"].score_rate, 0.75);
    assert!(!by.hop_count.contains_key("4"));
    // L-3: Cultural Reference r3 2 + r4 1 = 3/8; Visual Similarity r1 only = 1.0.
    assert_relative_eq!(by.l3["Cultural Reference"].score_rate, 0.375);
    assert_eq!(by.l3["Cultural Reference"].n, 2);
    assert_relative_eq!(by.l3["Visual Similarity"].score_rate, 1.0);
    assert!(!by.l3.contains_key("Causal Connections"));
    assert_eq!(by.l3.len(), 11);
    // L-2, each item once: semantic r3 2, r4 1 = 3/8 (n 2); recognition r1 = 1 (n 1);
    // reasoning r2 = 3/4 (n 1); context r2 3, r4 1 = 4/8.
    assert_relative_eq!(by.l2["semantic"].score_rate, 0.375);
    assert_eq!(by.l2["semantic"].n, 2);
    assert_eq!(by.l2["recognition"].n, 1);
    assert_relative_eq!(by.l2["reasoning"].score_rate, 0.75);
    assert_relative_eq!(by.l2["context"].score_rate, 0.5);
    // L-1: Perception r1 4, r2 3, r4 1, r6 4 = 12/16; Conception r1, r2, r3, r4 = 10/16.
    assert_relative_eq!(by.l1["Perception"].score_rate, 0.75);
    assert_relative_eq!(by.l1["Conception"].score_rate, 0.625);
    assert_eq!(by.l1["Conception"].n, 4);

    // Length bias (default: 1-point answers under 50 characters left out). Answer lengths in
    // characters: r1 86, r2 81, r3 40, r4 10 ("Unrelated.", 1 point → left out), r5 invalid,
    // r6 84, r7 48. Pairs (86,4) (81,3) (40,2) (84,4) (48,3): x̄ = 67.8, ȳ = 3.2;
    // Sxy = 14.56 − 2.64 + 33.36 + 12.96 + 3.96 = 62.2; Sxx = 1932.8; Syy = 2.8;
    // r = 62.2 / √(1932.8·2.8) = 0.84551 (scipy.stats.pearsonr: 0.8455083687393787,
    // p = 0.07118066331457298).
    let lb = h.length_bias.unwrap();
    assert_eq!((lb.n, lb.excluded, lb.min_length), (5, 1, 50));
    let c = lb.correlation.unwrap();
    assert_relative_eq!(c.r, 62.2 / (1932.8f64 * 2.8).sqrt(), max_relative = 1e-12);
    assert_relative_eq!(c.p, 0.071_180_663_314_572_98, max_relative = 1e-9);

    // Item rows carry metadata, answer, verdict and reason.
    let r1 = &report.items[0];
    assert_eq!(r1.id, "r1");
    assert_eq!(
        r1.meta.as_ref().unwrap().relation.as_deref(),
        Some("Protection")
    );
    assert!(r1.answers[0]
        .as_deref()
        .unwrap()
        .starts_with("Both protect"));
    assert_eq!(r1.holistic[0].verdicts[0].score, Some(4));
    assert!(r1.holistic[0].verdicts[0]
        .reason
        .as_deref()
        .unwrap()
        .contains("protective"));
    assert_eq!(report.items.len(), 7);
}

#[test]
fn ria_holistic_code_variants() {
    let f = ria();
    let input = || ScoreInput {
        task: Task::Ria,
        metadata: &f.meta,
        regular: vec![&f.gpt],
        reasoning: vec![],
        answers: None,
    };
    // Released RIA script's L-2 counting: one count per L-3 label. Released script output
    // on these files: recognition (2, 1.0), interaction (2, 1.0), semantic (3, 0.3333),
    // reasoning (2, 0.75), context (2, 0.5), logic (1, 1.0).
    let per_label = ScoreOptions {
        label_counting: LabelCounting::PerLabel,
        ..ScoreOptions::default()
    };
    let h = run(input(), &per_label).holistic.unwrap();
    let l2: Vec<(&str, usize, f64)> =
        h.by.l2
            .iter()
            .map(|(k, g)| (k.as_str(), g.n, g.score_rate))
            .collect();
    assert_eq!(
        l2,
        [
            ("context", 2, 0.5),
            ("interaction", 2, 1.0),
            ("logic", 1, 1.0),
            ("reasoning", 2, 0.75),
            ("recognition", 2, 1.0),
            ("semantic", 3, 4.0 / 12.0),
        ]
    );
    // Excluding the invalid score (released ICA script): N = 6, SR = 17/24.
    let exclude = ScoreOptions {
        invalid_scores: InvalidScores::Exclude,
        ..ScoreOptions::default()
    };
    let h = run(input(), &exclude).holistic.unwrap();
    assert_eq!(h.n, 6);
    assert_relative_eq!(h.score_rate, 17.0 / 24.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr3, 4.0 / 6.0, max_relative = 1e-12);
}

#[test]
fn ria_metadata_as_csv_gives_the_same_scores() {
    let f = ria();
    let with = |m: &Metadata| {
        run(
            ScoreInput {
                task: Task::Ria,
                metadata: m,
                regular: vec![&f.gpt],
                reasoning: vec![&f.gpt_r],
                answers: None,
            },
            &ScoreOptions::default(),
        )
    };
    let (a, b) = (with(&f.meta), with(&f.meta_csv));
    assert_eq!(a.holistic, b.holistic);
    assert_eq!(a.reasoning, b.reasoning);
}

#[test]
fn ria_process_reward_single_judge() {
    let f = ria();
    let input = || ScoreInput {
        task: Task::Ria,
        metadata: &f.meta,
        regular: vec![],
        reasoning: vec![&f.gpt_r],
        answers: None,
    };
    let r = run(input(), &ScoreOptions::default()).reasoning.unwrap();
    // α = γ = 0.9, s = min(1, 0.9·R·D + 0.1·K), S_r = Σ s_i·0.9^i:
    // r1: s = 0.9·1·0.9 + 0.1 = 0.91; 0.9·0.9·0.8 + 0.1 = 0.748; 0.9·0.8·0.5 = 0.36
    //     S = 0.91 + 0.748·0.9 + 0.36·0.81 = 0.91 + 0.6732 + 0.2916 = 1.8748
    // r2: 0.9·0.6·0.5 + 0.1 = 0.37
    // r3: R 1.1 → 1: s0 = 0.9 + 0.1 = 1; K 0.6 → 1: s1 = 0.9·0.25 + 0.1 = 0.325
    //     S = 1 + 0.325·0.9 = 1.2925
    // r4: judge error → skipped; r5: "strong" is not [R, D, K] → left out, the valid hop
    //     gives 0.9·0.2·0.1 = 0.018; r6: empty hop_quality → skipped; r7: 1.0.
    // Mean over 5 items = (1.8748 + 0.37 + 1.2925 + 0.018 + 1.0)/5 = 4.5553/5 = 0.91106.
    assert_eq!(r.n, 5);
    assert_relative_eq!(r.mean_score, 0.911_06, max_relative = 1e-12);
    // 8 valid hops. R = 1, .9, .8, .6, 1, .5, .2, 1 → 6.0/8; D = .9, .8, .5, .5, 1, .5, .1, 1
    // → 5.3/8; K = 1, 1, 0, 1, 1, 1, 0, 1 → 6/8. (Released script: 0.75, 0.6625, 0.75.)
    assert_eq!(r.hops, 8);
    assert_relative_eq!(r.mean_r, 0.75, max_relative = 1e-12);
    assert_relative_eq!(r.mean_d, 0.6625, max_relative = 1e-12);
    assert_relative_eq!(r.mean_k, 0.75, max_relative = 1e-12);
    // S_r bins: 0-1: r2, r5; 1-2: r1, r3, r7.
    assert_eq!(r.distribution.score["0-1"], 2);
    assert_eq!(r.distribution.score["1-2"], 3);
    assert_eq!(r.distribution.score[">=2"], 0);
    // R bins: 0.8-1: 1, .9, .8, 1, 1 (5); 0.6-0.8: .6; 0.4-0.6: .5; 0.2-0.4: .2.
    let rb: Vec<usize> = r.distribution.r.values().copied().collect();
    assert_eq!(rb, [0, 1, 1, 1, 5]);
    // D bins: 0-0.2: .1; 0.4-0.6: .5 ×3; 0.8-1: .9, .8, 1, 1.
    let db: Vec<usize> = r.distribution.d.values().copied().collect();
    assert_eq!(db, [1, 0, 3, 0, 4]);
    assert_eq!((r.distribution.k["0"], r.distribution.k["1"]), (2, 6));
    // Paths r1 (3 hops), r2 (1), r3 (2), r5 (1 valid), r6 (0), r7 (1); r4 has none.
    let hops: Vec<(usize, usize)> = r.distribution.hops.iter().map(|(k, v)| (*k, *v)).collect();
    assert_eq!(hops, [(0, 1), (1, 3), (2, 1), (3, 1)]);
    assert_eq!(r.paths, 6);
    let skipped: Vec<&str> = r.skipped.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(skipped, ["r4", "r6"]);
    assert_eq!(r.missing_metadata, ["r7"]);
    // Breakdowns: Nature r1, r2 → (1.8748 + 0.37)/2 = 1.1224; Culture r3 = 1.2925.
    assert_relative_eq!(
        r.by.domain["Nature"].mean_score,
        1.1224,
        max_relative = 1e-12
    );
    assert_relative_eq!(
        r.by.domain["Culture"].mean_score,
        1.2925,
        max_relative = 1e-12
    );
    assert_eq!(r.by.domain["Culture"].n, 1);
    // Warnings: R 1.1 clamped, K 0.6 rounded, r4 judge error, r5 malformed hop.
    assert_eq!(r.warnings.len(), 4, "{:?}", r.warnings);

    // Released RIA script: an item with a malformed hop (r5) is skipped whole. It printed
    // test_num 4, avg_reasoning_score 1.134325 = (1.8748 + 0.37 + 1.2925 + 1.0)/4, with the
    // R/D/K means unchanged and the S_r bins 0-1: 1, 1-2: 3.
    let released = ScoreOptions {
        invalid_hops: InvalidHops::SkipItem,
        ..ScoreOptions::default()
    };
    let r = run(input(), &released).reasoning.unwrap();
    assert_eq!(r.n, 4);
    assert_relative_eq!(r.mean_score, 1.134_325, max_relative = 1e-12);
    assert_relative_eq!(r.mean_d, 0.6625, max_relative = 1e-12);
    assert_eq!(r.distribution.score["0-1"], 1);

    // α = 0.5, γ = 0.8 for r2 alone: 0.5·0.6·0.5 + 0.5·1 = 0.65.
    let options = ScoreOptions::new(0.5, 0.8).unwrap();
    let report = run(input(), &options);
    let r2 = report.items.iter().find(|i| i.id == "r2").unwrap();
    assert_relative_eq!(r2.s_r.unwrap(), 0.65, max_relative = 1e-12);
    let hop = &r2.process[0].rotations[0].as_ref().unwrap().paths[0].hops[0];
    assert_eq!((hop.r, hop.d, hop.k), (0.6, 0.5, 1.0));
}

#[test]
fn ria_two_judges_are_pooled_and_reported_each() {
    let f = ria();
    let report = run(
        ScoreInput {
            task: Task::Ria,
            metadata: &f.meta,
            regular: vec![&f.gpt, &f.deepseek],
            reasoning: vec![&f.gpt_r, &f.deepseek_r],
            answers: None,
        },
        &ScoreOptions::default(),
    );
    // DeepSeek holistic: r1 4, r2 4, r3 3, r4 1, r5 1, r6 3 → Σ 16, N 6, SR 16/24.
    // Pooled: N = 7 + 6 = 13, Σ = 17 + 16 = 33 → SR = 33/52; HR-3 = (4 + 4)/13;
    // HR-4 = (2 + 2)/13.
    let h = report.holistic.unwrap();
    assert_eq!(h.n, 13);
    assert_relative_eq!(h.score_rate, 33.0 / 52.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr3, 8.0 / 13.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr4, 4.0 / 13.0, max_relative = 1e-12);
    // Science: GPT r6 4, DeepSeek r5 1 and r6 3 → 8/12 over 3 verdicts, 2 items.
    assert_relative_eq!(
        h.by.domain["Science"].score_rate,
        8.0 / 12.0,
        max_relative = 1e-12
    );
    assert_eq!(
        (h.by.domain["Science"].n, h.by.domain["Science"].items),
        (3, 2)
    );
    // r7 is scored by GPT-4o only.
    assert!(h
        .warnings
        .iter()
        .any(|w| w.message.starts_with("1 item(s)")));
    let each: Vec<f64> = report
        .per_judge
        .holistic
        .iter()
        .map(|j| j.score_rate)
        .collect();
    assert_relative_eq!(each[0], 17.0 / 28.0, max_relative = 1e-12);
    assert_relative_eq!(each[1], 16.0 / 24.0, max_relative = 1e-12);

    // Process: DeepSeek r1: 0.829 + 0.586·0.9 + 0.46·0.81 = 1.729; r2: 0.27; r3: 1.2925;
    // r5: 0.18; r6: 0.9·0.5·1 + 0.1 = 0.55. Item means over judges: r1 1.8019, r2 0.32,
    // r3 1.2925, r5 0.099, r6 0.55 (DeepSeek only), r7 1.0 (GPT only) → Σ 5.0634, n 6.
    let r = report.reasoning.unwrap();
    assert_eq!(r.n, 6);
    assert_relative_eq!(r.mean_score, 5.0634 / 6.0, max_relative = 1e-12);
    // Hops pooled: 8 + 8; R Σ 6.0 + 5.6; D Σ 5.3 + 5.5; K Σ 6 + 6.
    assert_eq!(r.hops, 16);
    assert_relative_eq!(r.mean_r, 11.6 / 16.0, max_relative = 1e-12);
    assert_relative_eq!(r.mean_d, 10.8 / 16.0, max_relative = 1e-12);
    assert_relative_eq!(r.mean_k, 0.75, max_relative = 1e-12);
    assert_relative_eq!(
        report.per_judge.reasoning[1].mean_score,
        (1.729 + 0.27 + 1.2925 + 0.18 + 0.55) / 5.0,
        max_relative = 1e-12
    );
    let r6 = report.items.iter().find(|i| i.id == "r6").unwrap();
    assert_eq!(r6.process.len(), 2);
    assert_eq!(r6.process[0].s_r, None);
    assert_relative_eq!(r6.s_r.unwrap(), 0.55, max_relative = 1e-12);
}

#[test]
fn ria_judge_validation() {
    let f = ria();
    // GPT-4o vs human re-score over r1..r6; r5 is invalid in the judge file → unpaired.
    // Pairs (4,4) (3,2) (2,2) (1,1) (4,3): |d| = 0,1,0,0,1 → MAD 0.4, exact 3/5, within-1 1.
    let g = holistic_agreement(&f.gpt, &f.human, 10_000, 7).unwrap();
    assert_eq!((g.n, g.unpaired), (5, 1));
    assert_eq!(g.only_in_a, ["r7"]);
    assert_relative_eq!(g.mean_abs_diff, 0.4, max_relative = 1e-12);
    assert_relative_eq!(g.exact_match, 0.6, max_relative = 1e-12);
    assert_relative_eq!(g.within_one, 1.0);
    // Pearson: x̄ 2.8, ȳ 2.4; Sxy = 1.92 − 0.08 + 0.32 + 2.52 + 0.72 = 5.4; Sxx = 6.8;
    // Syy = 5.2; r = 5.4/√35.36 = 0.90811 (scipy: 0.9081082718950217, p 0.032973869936524104).
    let c = g.pearson.unwrap();
    assert_relative_eq!(c.r, 5.4 / 35.36f64.sqrt(), max_relative = 1e-12);
    assert_relative_eq!(c.p, 0.032_973_869_936_524_104, max_relative = 1e-9);
    // κ (scale 0-4): p_o = 0.6; judge marginals 1:1, 2:1, 3:1, 4:2; human 1:1, 2:2, 3:1, 4:1;
    // p_e = (1 + 2 + 1 + 2)/25 = 0.24; κ = 0.36/0.76 = 0.47368 (sklearn cohen_kappa_score(
    // [4,3,2,1,4], [4,2,2,1,3], labels=[0,1,2,3,4]) = 0.4736842105263158; weights="quadratic"
    // → 0.84375).
    assert_relative_eq!(g.kappa.unwrap(), 0.36 / 0.76, max_relative = 1e-12);
    assert_relative_eq!(g.kappa_quadratic.unwrap(), 0.84375, max_relative = 1e-12);
    // d = 0,1,0,0,1: Σ = 2; of the 32 sign patterns, the two 1s must share a sign (+,+ or −,−)
    // → 16/32 = 0.5.
    assert!(g.paired_test.exact);
    assert_relative_eq!(g.paired_test.p, 0.5);

    // Order bias vs the image-swapped run: pairs r1 (4,3) r2 (3,3) r3 (2,2) r4 (1,1)
    // r6 (4,3) r7 (3,2); r5 unpaired. d = 1,0,0,0,1,1, mean 0.5; |Σ| = 3 needs all three 1s
    // with one sign: 2/8 = 0.25.
    let ob = order_bias(&f.gpt, &f.swapped, 10_000, 7).unwrap();
    assert_eq!(ob.n, 6);
    assert_relative_eq!(ob.mean_diff, 0.5);
    assert_relative_eq!(ob.p, 0.25);

    // Process agreement GPT-4o vs DeepSeek. Paired hops (r1 ×3, r2, r3 ×2, r5 first hop; r6
    // GPT has no hop → 1 unpaired):
    // R: A 1,.9,.8,.6,1,.5,.2  B .9,.9,.8,.6,1,.5,.4 → MAD (0.1 + 0.2)/7;
    // D: A .9,.8,.5,.5,1,.5,.1 B .9,.6,.5,.5,1,.5,.5 → MAD (0.2 + 0.4)/7;
    // K: A 1,1,0,1,1,1,0       B 1,1,1,0,1,1,0       → accuracy 5/7; marginals both (2, 5):
    //    p_e = (4 + 25)/49, κ = (35 − 29)/(49 − 29) = 0.3 (sklearn: 0.30000000000000004).
    // scipy.stats.pearsonr: R 0.9743894957535661, D 0.8205261868661844.
    let p =
        process_agreement(&f.gpt_r, &f.deepseek_r, &ScoreOptions::default(), 10_000, 7).unwrap();
    assert_eq!(p.unpaired_hops, 1);
    assert_eq!(p.only_in_a, ["r7"]);
    let hops = p.hops.unwrap();
    assert_eq!(hops.n, 7);
    assert_relative_eq!(hops.mad_r, 0.3 / 7.0, max_relative = 1e-9);
    assert_relative_eq!(hops.mad_d, 0.6 / 7.0, max_relative = 1e-9);
    assert_relative_eq!(hops.k_accuracy, 5.0 / 7.0, max_relative = 1e-12);
    assert_relative_eq!(hops.k_kappa.unwrap(), 0.3, max_relative = 1e-12);
    assert_relative_eq!(
        hops.pearson_r.unwrap().r,
        0.974_389_495_753_566_1,
        max_relative = 1e-9
    );
    assert_relative_eq!(
        hops.pearson_d.unwrap().r,
        0.820_526_186_866_184_4,
        max_relative = 1e-9
    );
    // Item S_r pairs r1 (1.8748, 1.729), r2 (0.37, 0.27), r3 (1.2925, 1.2925),
    // r5 (0.018, 0.18): |d| = 0.1458, 0.1, 0, 0.162 → MAD 0.4078/4 = 0.10195.
    let s = p.score.unwrap();
    assert_eq!(s.n, 4);
    assert_relative_eq!(s.mean_abs_diff, 0.101_95, max_relative = 1e-9);
    assert_relative_eq!(
        s.pearson.unwrap().r,
        0.991_215_412_132_755_5,
        max_relative = 1e-9
    );
}

// The ICA set: items i1..i3 in a CSV metadata file (i1's domain "Sports, History"), i4 only
// in the judge files. Holistic verdicts per rotation:
// i1 3, 4, 2, 3 (Σ 12); i2 2, 1, null (invalid → 0), 2 (Σ 5); i3 4, 4, 3 (3 rotations, Σ 11);
// i4 0, 1, 2, 3 (Σ 6).

#[test]
fn ica_holistic() {
    let m = meta(fixture!("ica/metadata.csv"));
    let g = regular(fixture!("ica/modelx_ICA_regular_scoring.json"));
    let a = fixture!("ica/modelx_ICA_results.json");
    let answers = Answers::parse(a.0, a.1).unwrap();
    let input = || ScoreInput {
        task: Task::Ica,
        metadata: &m,
        regular: vec![&g],
        reasoning: vec![],
        answers: Some(&answers),
    };
    let report = run(input(), &ScoreOptions::default());
    let h = report.holistic.unwrap();
    // N = 4 + 4 + 3 + 4 = 15 verdicts, Σ = 34 → SR = 34/60.
    assert_eq!((h.n, h.items, h.invalid), (15, 4, 1));
    assert_relative_eq!(h.score_rate, 34.0 / 60.0, max_relative = 1e-12);
    // ≥ 3: i1 3, 4, 3; i3 4, 4, 3; i4 3 → 7/15. = 4: i1 one, i3 two → 3/15.
    assert_relative_eq!(h.hr3, 7.0 / 15.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr4, 0.2, max_relative = 1e-12);
    assert_relative_eq!(h.delta_hr, 4.0 / 15.0, max_relative = 1e-12);
    // Valid scores: 0 (i4), 1 (i2, i4), 2 (i1, i2 ×2, i4), 3 (i1 ×2, i3, i4), 4 (i1, i3 ×2).
    let dist: Vec<usize> = h.distribution.values().copied().collect();
    assert_eq!(dist, [1, 2, 4, 4, 3]);
    assert_eq!(h.missing_metadata, ["i4"]);
    // Domain list "Sports, History" counts i1 in both (released ICA script): 12/16 each.
    assert_relative_eq!(h.by.domain["Sports"].score_rate, 0.75);
    assert_relative_eq!(h.by.domain["History"].score_rate, 0.75);
    assert_eq!(h.by.domain["History"].n, 4);
    // Nature: i2's 3 valid verdicts 2 + 1 + 2 = 5/12; Food: i3 11/12.
    assert_relative_eq!(
        h.by.domain["Nature"].score_rate,
        5.0 / 12.0,
        max_relative = 1e-12
    );
    assert_relative_eq!(
        h.by.domain["Food"].score_rate,
        11.0 / 12.0,
        max_relative = 1e-12
    );
    // L-1 Perception: i1 (Σ12 over 4 valid verdicts) + i2 (Σ5 over 3) = 17/(4·7);
    // Conception: i1 + i2 + i3 (Σ11 over 3) = 28/(4·10).
    assert_relative_eq!(
        h.by.l1["Perception"].score_rate,
        17.0 / 28.0,
        max_relative = 1e-12
    );
    assert_relative_eq!(h.by.l1["Conception"].score_rate, 0.7, max_relative = 1e-12);
    assert_eq!(h.by.l1["Conception"].n, 10);
    assert_relative_eq!(
        h.by.l3["Thematic Links"].score_rate,
        11.0 / 12.0,
        max_relative = 1e-12
    );
    // Warnings: i2's null rotation, i3's 3 rotations.
    assert_eq!(h.warnings.len(), 2, "{:?}", h.warnings);
    // Released ICA script: invalid verdicts out of N → 14, SR 34/56.
    let exclude = ScoreOptions {
        invalid_scores: InvalidScores::Exclude,
        ..ScoreOptions::default()
    };
    let h = run(input(), &exclude).holistic.unwrap();
    assert_eq!(h.n, 14);
    assert_relative_eq!(h.score_rate, 34.0 / 56.0, max_relative = 1e-12);
    // The CSV's foldername column also finds items (ICA results are keyed by folder name).
    assert_eq!(m.get("ica_0002").unwrap().id, "i2");
    let i1 = &report.items[0];
    assert_eq!(i1.answers.len(), 4);
    assert_relative_eq!(i1.mean_score.unwrap(), 3.0);
}

#[test]
fn ica_process_reward() {
    let m = meta(fixture!("ica/metadata.csv"));
    let rs = reasoning(fixture!("ica/modelx_ICA_reasoning_scoring.json"));
    let report = run(
        ScoreInput {
            task: Task::Ica,
            metadata: &m,
            regular: vec![],
            reasoning: vec![&rs],
            answers: None,
        },
        &ScoreOptions::default(),
    );
    let r = report.reasoning.unwrap();
    // i1 rotation 0: path1 [1,1,1] → 1.0; path2 s = 0.9·0.5 + 0.1 = 0.55, 0.9·0.8·0.5 = 0.36
    //   → 0.55 + 0.36·0.9 = 0.874; rotation 1: path1 0.9·0.25 = 0.225, path2 has no hop;
    //   rotation 2 is a judge error, rotation 3 null. i1 = (1 + 0.874 + 0.225)/3 = 2.099/3.
    // i2 (one rotation): 0.9·0.2·0.5 = 0.09 and 0.9·0.4·0.5 + 0.1 = 0.28 → 0.185.
    // i3: 8 empty paths → skipped. Mean = (2.099/3 + 0.185)/2.
    assert_eq!(r.n, 2);
    assert_relative_eq!(
        r.mean_score,
        (2.099 / 3.0 + 0.185) / 2.0,
        max_relative = 1e-12
    );
    // Hops: R 1, 1, .8, .5, .2, .4 → 3.9/6; D 1, .5, .5, .5, .5, .5 → 3.5/6; K 1,1,0,0,0,1.
    assert_eq!(r.hops, 6);
    assert_relative_eq!(r.mean_r, 0.65, max_relative = 1e-12);
    assert_relative_eq!(r.mean_d, 3.5 / 6.0, max_relative = 1e-12);
    assert_relative_eq!(r.mean_k, 0.5, max_relative = 1e-12);
    // Paths: i1 4 (1, 2, 1, 0 hops), i2 2 (1, 1), i3 8 (0) → {0: 9, 1: 4, 2: 1}.
    assert_eq!(r.paths, 14);
    let hops: Vec<(usize, usize)> = r.distribution.hops.iter().map(|(k, v)| (*k, *v)).collect();
    assert_eq!(hops, [(0, 9), (1, 4), (2, 1)]);
    assert_eq!(r.skipped.len(), 1);
    assert_eq!(r.skipped[0].id, "i3");
    assert_relative_eq!(
        r.by.domain["History"].mean_score,
        2.099 / 3.0,
        max_relative = 1e-12
    );
    // Warnings: i1 rotation 2 error, rotation 3 null, i2 has 1 rotation.
    assert_eq!(r.warnings.len(), 3, "{:?}", r.warnings);
}

#[test]
fn ica_average_items_or_paths() {
    // Issue 23: the released `evaluation/ICA/ICA_stat.py` divides the sum of all path scores
    // by the number of non-empty paths (`avg_reasoning_score = total_reasoning_score /
    // path_count`); ours averages paths within an item, then items.
    let m = meta(fixture!("ica/metadata.csv"));
    let rs = reasoning(fixture!("ica/modelx_ICA_reasoning_scoring.json"));
    let input = || ScoreInput {
        task: Task::Ica,
        metadata: &m,
        regular: vec![],
        reasoning: vec![&rs],
        answers: None,
    };
    let items = run(input(), &ScoreOptions::default()).reasoning.unwrap();
    assert_eq!(items.ica_average, IcaAverage::Items);
    // Path scores (worked in ica_process_reward): i1 1.0, 0.874, 0.225; i2 0.09, 0.28.
    // Items: (2.099/3 + 0.37/2)/2 = (0.699667 + 0.185)/2 = 0.442333.
    assert_relative_eq!(
        items.mean_score,
        (2.099 / 3.0 + 0.185) / 2.0,
        max_relative = 1e-12
    );
    assert_eq!(items.scored_paths, 5);
    let paths_opt = ScoreOptions {
        ica_average: IcaAverage::Paths,
        ..ScoreOptions::default()
    };
    let paths = run(input(), &paths_opt).reasoning.unwrap();
    assert_eq!(paths.ica_average, IcaAverage::Paths);
    // Released script: (1 + 0.874 + 0.225 + 0.09 + 0.28)/5 = 2.469/5 = 0.4938 (the empty
    // `hop_quality_path2` of i1 rotation 1 and the i3 paths are not in path_count).
    assert_relative_eq!(paths.mean_score, 0.4938, max_relative = 1e-12);
    assert_eq!(paths.n, 2);
    // Breakdown History = i1 alone: 2.099/3 over items, the same over its 3 paths.
    assert_relative_eq!(
        paths.by.domain["History"].mean_score,
        2.099 / 3.0,
        max_relative = 1e-12
    );
    assert_eq!(paths.by.domain["History"].n, 1);
    // The item rows keep each item's mean of paths.
    let report = run(input(), &paths_opt);
    let i2 = report.items.iter().find(|i| i.id == "i2").unwrap();
    assert_relative_eq!(i2.s_r.unwrap(), 0.185, max_relative = 1e-12);
    // In RIA (one path per item) both settings agree: r1..r3, r5, r7 of the RIA fixture.
    let f = ria();
    let ria_input = || ScoreInput {
        task: Task::Ria,
        metadata: &f.meta,
        regular: vec![],
        reasoning: vec![&f.gpt_r],
        answers: None,
    };
    let a = run(ria_input(), &ScoreOptions::default())
        .reasoning
        .unwrap();
    let b = run(ria_input(), &paths_opt).reasoning.unwrap();
    assert_relative_eq!(a.mean_score, b.mean_score, max_relative = 1e-12);
}

#[test]
fn decay_code_or_paper_for_any_hop_count() {
    // Issue 23: S_r for a 4-hop path with every hop perfect (s = 1): the released code gives
    // 1 + 0.9 + 0.81 + 0.729 = 3.439 (above the "about 2.7" of 3 hops), the paper's equation 2
    // 0.9 + 0.81 + 0.729 + 0.6561 = 3.0951 = 3.439 × 0.9.
    let text = r#"{"q": {"path": "A → B → C → D → E", "hop_quality":
        {"A → B": [1, 1, 1], "B → C": [1, 1, 1], "C → D": [1, 1, 1], "D → E": [1, 1, 1]}}}"#;
    let rs = reasoning(("r.json", text.as_bytes()));
    let m = Metadata::parse(
        "m.json",
        br#"[{"id": "q", "domain": "Art", "type": "Relation", "culture": "Global",
              "language": "English", "hop_count": 4, "perception": [], "conception": []}]"#,
    )
    .unwrap();
    let input = || ScoreInput {
        task: Task::Ria,
        metadata: &m,
        regular: vec![],
        reasoning: vec![&rs],
        answers: None,
    };
    let code = run(input(), &ScoreOptions::default()).reasoning.unwrap();
    assert_eq!(code.decay_exponent, DecayExponent::FromZero);
    assert_relative_eq!(code.mean_score, 3.439, max_relative = 1e-12);
    let paper = ScoreOptions {
        decay_exponent: DecayExponent::FromOne,
        ..ScoreOptions::default()
    };
    let p = run(input(), &paper).reasoning.unwrap();
    assert_eq!(p.decay_exponent, DecayExponent::FromOne);
    assert_relative_eq!(p.mean_score, 3.0951, max_relative = 1e-12);
    assert_eq!(p.distribution.score[">=2"], 1);
}

#[test]
fn ica_human_agreement() {
    let g = regular(fixture!("ica/modelx_ICA_regular_scoring.json"));
    let h = regular(fixture!("ica/human_ICA_rescore.json"));
    let a = holistic_agreement(&g, &h, 10_000, 1).unwrap();
    // Pairs by rotation: i1 (3,3) (4,3) (2,2) (3,3); i2 (2,2) (1,1) [null: unpaired] (2,2);
    // i3 (4,4) (4,3) (3,3) [4th human score unpaired]. n = 10, |d| = 1 twice → MAD 0.2,
    // exact 0.8. κ: p_o 0.8; marginals judge 1:1 2:3 3:3 4:3, human 1:1 2:3 3:5 4:1;
    // p_e = (1 + 9 + 15 + 3)/100 = 0.28; κ = 0.52/0.72 (sklearn: 0.7222222222222222).
    assert_eq!((a.n, a.unpaired, a.items), (10, 2, 3));
    assert_eq!(a.only_in_a, ["i4"]);
    assert_relative_eq!(a.mean_abs_diff, 0.2, max_relative = 1e-12);
    assert_relative_eq!(a.exact_match, 0.8, max_relative = 1e-12);
    assert_relative_eq!(a.kappa.unwrap(), 0.52 / 0.72, max_relative = 1e-12);
    // Σd = 2 from two +1s among 10 pairs → 2 of 4 sign patterns of the non-zero pair: p = 0.5
    // (exact: 2^10 = 1024 ≤ 10,000).
    assert!(a.paired_test.exact);
    assert_relative_eq!(a.paired_test.p, 0.5);
}

#[test]
fn detection_of_every_fixture() {
    type Case<'a> = ((&'a str, &'a [u8]), FileKind, Option<Task>);
    let cases: [Case; 9] = [
        (fixture!("ria/metadata.json"), FileKind::Metadata, None),
        (fixture!("ria/metadata.csv"), FileKind::Metadata, None),
        (
            fixture!("ria/modelx_RIA_results.json"),
            FileKind::Answers,
            Some(Task::Ria),
        ),
        (
            fixture!("ria/modelx_RIA_regular_scoring.json"),
            FileKind::RegularScoring,
            Some(Task::Ria),
        ),
        (
            fixture!("ria/modelx_RIA_reasoning_scoring.json"),
            FileKind::ReasoningScoring,
            Some(Task::Ria),
        ),
        (
            fixture!("ria/human_RIA_rescore.json"),
            FileKind::Scores,
            Some(Task::Ria),
        ),
        (
            fixture!("ica/modelx_ICA_results.json"),
            FileKind::Answers,
            Some(Task::Ica),
        ),
        (
            fixture!("ica/modelx_ICA_regular_scoring.json"),
            FileKind::RegularScoring,
            Some(Task::Ica),
        ),
        (
            fixture!("ica/modelx_ICA_reasoning_scoring.json"),
            FileKind::ReasoningScoring,
            Some(Task::Ica),
        ),
    ];
    for ((name, bytes), kind, task) in cases {
        let d = detect(name, bytes).unwrap();
        assert_eq!((d.kind, d.task), (kind, task), "{name}");
    }
    let human_ica = fixture!("ica/human_ICA_rescore.json");
    let d = detect(human_ica.0, human_ica.1).unwrap();
    assert_eq!((d.kind, d.task), (FileKind::Scores, Some(Task::Ica)));
}

#[test]
fn report_round_trips_through_json() {
    let f = ria();
    let report = run(
        ScoreInput {
            task: Task::Ria,
            metadata: &f.meta,
            regular: vec![&f.gpt, &f.deepseek],
            reasoning: vec![&f.gpt_r],
            answers: Some(&f.answers),
        },
        &ScoreOptions::default(),
    );
    let text = serde_json::to_string(&report).unwrap();
    // serde_json's default float parser may differ from the printed value in the last bit,
    // so compare the parts that are not floats exactly and the floats to 1e-15.
    let back: Report = serde_json::from_str(&text).unwrap();
    let (h, bh) = (
        report.holistic.as_ref().unwrap(),
        back.holistic.as_ref().unwrap(),
    );
    assert_eq!(
        (bh.n, &bh.distribution, &bh.warnings),
        (h.n, &h.distribution, &h.warnings)
    );
    assert_relative_eq!(bh.score_rate, h.score_rate, max_relative = 1e-15);
    assert_eq!(back.items.len(), report.items.len());
    assert_eq!(back.items[0].holistic, report.items[0].holistic);
    assert_relative_eq!(
        back.reasoning.as_ref().unwrap().mean_score,
        report.reasoning.as_ref().unwrap().mean_score,
        max_relative = 1e-15
    );
    // The CLI contract's field names.
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for key in [
        "n",
        "score_rate",
        "hr3",
        "hr4",
        "delta_hr",
        "distribution",
        "by",
        "warnings",
    ] {
        assert!(v["holistic"].get(key).is_some(), "holistic.{key}");
    }
    for key in [
        "domain",
        "culture",
        "type",
        "language",
        "hop_count",
        "l1",
        "l2",
        "l3",
    ] {
        assert!(v["holistic"]["by"].get(key).is_some(), "by.{key}");
    }
    for key in [
        "n",
        "mean_score",
        "mean_r",
        "mean_d",
        "mean_k",
        "distribution",
        "skipped",
    ] {
        assert!(v["reasoning"].get(key).is_some(), "reasoning.{key}");
    }
    assert_eq!(v["benchmark"], "mmopera");
    assert_eq!(v["task"], "ria");
}
