//! Paired comparisons of two models on the same items: McNemar exact test, paired bootstrap (issue 3).
