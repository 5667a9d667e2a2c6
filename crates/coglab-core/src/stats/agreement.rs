//! Agreement between two raters: exact match, MAD, Cohen kappa (unweighted, quadratic), permutation test (issue 4).
