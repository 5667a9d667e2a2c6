//! Small dense linear algebra for the PLS-SEM engine: matrices, OLS, inverses (issue 5).
