//! MM-OPERA: judge results, holistic and process-reward scores, judge validation (issue 4).
