//! Small dense linear algebra for the PLS-SEM engine (issue 5), written by hand so the wasm
//! build carries no matrix library: a row-major [`Matrix`], Cholesky and LU solves, inverses,
//! ordinary least squares and the correlation matrix of columns.
//!
//! Every routine returns a [`LinalgError`] instead of NaN when a matrix is singular: the
//! callers turn it into a located error ("IMAG3 is a linear combination of ...").

use std::ops::{Index, IndexMut};

/// Why a linear-algebra routine could not give a result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LinalgError {
    /// The matrix is (numerically) singular: pivot `pivot` (0-based row/column) vanished, so
    /// that row is a linear combination of the rows before it.
    #[error("matrix is singular (pivot {pivot} is {value:e})")]
    Singular {
        /// 0-based index of the vanishing pivot.
        pivot: usize,
        /// The pivot's value relative to the diagonal element it came from.
        value: f64,
    },
    /// Shapes do not fit together.
    #[error("dimension mismatch: expected {expected}, found {found}")]
    Dimension {
        /// What the routine needed.
        expected: String,
        /// What it was given.
        found: String,
    },
    /// A column of the correlation matrix is constant.
    #[error("column {column} is constant (zero variance)")]
    ZeroVariance {
        /// 0-based index of the constant column.
        column: usize,
    },
}

/// Relative size under which a pivot counts as zero (a correlation matrix whose Cholesky
/// pivot drops below this has an R² above 1 − 1e-10 between one column and the others).
pub const SINGULAR_TOLERANCE: f64 = 1e-10;

/// A dense row-major matrix of `f64`.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    /// A `rows x cols` matrix of zeros.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// The `n x n` identity.
    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = 1.0;
        }
        m
    }

    /// A matrix from rows of equal length.
    ///
    /// # Errors
    /// [`LinalgError::Dimension`] when the rows differ in length.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::linalg::Matrix;
    /// let m = Matrix::from_rows(&[vec![1.0, 2.0], vec![3.0, 4.0]]).unwrap();
    /// assert_eq!(m[(1, 0)], 3.0);
    /// ```
    pub fn from_rows(rows: &[Vec<f64>]) -> Result<Self, LinalgError> {
        let cols = rows.first().map_or(0, Vec::len);
        let mut data = Vec::with_capacity(rows.len() * cols);
        for (i, r) in rows.iter().enumerate() {
            if r.len() != cols {
                return Err(LinalgError::Dimension {
                    expected: format!("{cols} columns"),
                    found: format!("{} columns in row {i}", r.len()),
                });
            }
            data.extend_from_slice(r);
        }
        Ok(Self {
            rows: rows.len(),
            cols,
            data,
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Row `i` as a slice.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// The sub-matrix with the given rows and columns (in that order).
    pub fn select(&self, rows: &[usize], cols: &[usize]) -> Matrix {
        let mut m = Matrix::zeros(rows.len(), cols.len());
        for (a, &r) in rows.iter().enumerate() {
            for (b, &c) in cols.iter().enumerate() {
                m[(a, b)] = self[(r, c)];
            }
        }
        m
    }

    /// Matrix-vector product.
    ///
    /// # Errors
    /// [`LinalgError::Dimension`] when `x.len() != cols`.
    pub fn mul_vec(&self, x: &[f64]) -> Result<Vec<f64>, LinalgError> {
        if x.len() != self.cols {
            return Err(LinalgError::Dimension {
                expected: format!("a vector of length {}", self.cols),
                found: format!("length {}", x.len()),
            });
        }
        Ok((0..self.rows)
            .map(|i| self.row(i).iter().zip(x).map(|(a, b)| a * b).sum())
            .collect())
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    fn index(&self, (r, c): (usize, usize)) -> &f64 {
        &self.data[r * self.cols + c]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (r, c): (usize, usize)) -> &mut f64 {
        &mut self.data[r * self.cols + c]
    }
}

fn require_square(a: &Matrix) -> Result<(), LinalgError> {
    if a.rows != a.cols {
        return Err(LinalgError::Dimension {
            expected: "a square matrix".into(),
            found: format!("{} x {}", a.rows, a.cols),
        });
    }
    Ok(())
}

/// The Cholesky factor `L` (lower triangular, `A = L Lᵀ`) of a symmetric positive definite
/// matrix.
#[derive(Debug, Clone)]
pub struct Cholesky {
    l: Matrix,
}

impl Cholesky {
    /// Factors `a` (only its lower triangle is read).
    ///
    /// # Errors
    /// [`LinalgError::Singular`] naming the first pivot that is not positive relative to
    /// its diagonal element ([`SINGULAR_TOLERANCE`]), [`LinalgError::Dimension`] when `a` is
    /// not square.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::linalg::{Cholesky, Matrix};
    /// // [[4, 2], [2, 3]] = L Lᵀ with L = [[2, 0], [1, sqrt 2]]
    /// let a = Matrix::from_rows(&[vec![4.0, 2.0], vec![2.0, 3.0]]).unwrap();
    /// let x = Cholesky::new(&a).unwrap().solve(&[2.0, 1.0]);
    /// assert!((x[0] - 0.5).abs() < 1e-15 && x[1].abs() < 1e-15);
    /// ```
    pub fn new(a: &Matrix) -> Result<Self, LinalgError> {
        require_square(a)?;
        let n = a.rows;
        let mut l = Matrix::zeros(n, n);
        for j in 0..n {
            let mut d = a[(j, j)];
            for k in 0..j {
                d -= l[(j, k)] * l[(j, k)];
            }
            let scale = a[(j, j)].abs().max(f64::MIN_POSITIVE);
            if !d.is_finite() || d <= SINGULAR_TOLERANCE * scale {
                return Err(LinalgError::Singular {
                    pivot: j,
                    value: d / scale,
                });
            }
            let djj = d.sqrt();
            l[(j, j)] = djj;
            for i in j + 1..n {
                let mut s = a[(i, j)];
                for k in 0..j {
                    s -= l[(i, k)] * l[(j, k)];
                }
                l[(i, j)] = s / djj;
            }
        }
        Ok(Self { l })
    }

    /// Solves `A x = b` (`b.len()` must equal the order of `A`).
    #[allow(clippy::needless_range_loop)] // triangular solves read best with indices
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let n = self.l.rows;
        let mut y = b.to_vec();
        for i in 0..n {
            let mut s = y[i];
            for k in 0..i {
                s -= self.l[(i, k)] * y[k];
            }
            y[i] = s / self.l[(i, i)];
        }
        for i in (0..n).rev() {
            let mut s = y[i];
            for k in i + 1..n {
                s -= self.l[(k, i)] * y[k];
            }
            y[i] = s / self.l[(i, i)];
        }
        y
    }

    /// `A⁻¹`, column by column.
    pub fn inverse(&self) -> Matrix {
        let n = self.l.rows;
        let mut inv = Matrix::zeros(n, n);
        let mut e = vec![0.0; n];
        for j in 0..n {
            e.iter_mut().for_each(|v| *v = 0.0);
            e[j] = 1.0;
            let col = self.solve(&e);
            for (i, v) in col.into_iter().enumerate() {
                inv[(i, j)] = v;
            }
        }
        inv
    }
}

/// Solves `A x = b` for a general square `A` by LU decomposition with partial pivoting.
///
/// # Errors
/// [`LinalgError::Singular`] when a pivot column has no element above
/// [`SINGULAR_TOLERANCE`] times the largest absolute entry of `A`;
/// [`LinalgError::Dimension`] on mismatched shapes.
///
/// # Examples
/// ```
/// use coglab_core::linalg::{lu_solve, Matrix};
/// // x + 2y = 5, 3x + 4y = 11  ->  x = 1, y = 2
/// let a = Matrix::from_rows(&[vec![1.0, 2.0], vec![3.0, 4.0]]).unwrap();
/// let x = lu_solve(&a, &[5.0, 11.0]).unwrap();
/// assert!((x[0] - 1.0).abs() < 1e-14 && (x[1] - 2.0).abs() < 1e-14);
/// ```
pub fn lu_solve(a: &Matrix, b: &[f64]) -> Result<Vec<f64>, LinalgError> {
    require_square(a)?;
    let n = a.rows;
    if b.len() != n {
        return Err(LinalgError::Dimension {
            expected: format!("a right-hand side of length {n}"),
            found: format!("length {}", b.len()),
        });
    }
    let mut m = a.clone();
    let mut x = b.to_vec();
    let scale = m
        .data
        .iter()
        .fold(0.0_f64, |acc, v| acc.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    for k in 0..n {
        let (p, best) = (k..n)
            .map(|i| (i, m[(i, k)].abs()))
            .fold((k, -1.0), |acc, it| if it.1 > acc.1 { it } else { acc });
        if best <= SINGULAR_TOLERANCE * scale {
            return Err(LinalgError::Singular {
                pivot: k,
                value: best / scale,
            });
        }
        if p != k {
            for c in 0..n {
                m.data.swap(k * n + c, p * n + c);
            }
            x.swap(k, p);
        }
        for i in k + 1..n {
            let f = m[(i, k)] / m[(k, k)];
            if f != 0.0 {
                for c in k..n {
                    let v = m[(k, c)];
                    m[(i, c)] -= f * v;
                }
                x[i] -= f * x[k];
            }
        }
    }
    for i in (0..n).rev() {
        let mut s = x[i];
        for c in i + 1..n {
            s -= m[(i, c)] * x[c];
        }
        x[i] = s / m[(i, i)];
    }
    Ok(x)
}

/// The inverse of a symmetric positive definite matrix (by Cholesky).
///
/// # Errors
/// As [`Cholesky::new`].
pub fn inverse_spd(a: &Matrix) -> Result<Matrix, LinalgError> {
    Ok(Cholesky::new(a)?.inverse())
}

/// Ordinary least squares without intercept from a cross-product matrix: solves
/// `XᵀX β = Xᵀy`, given `xtx = XᵀX` and `xty = Xᵀy`. With correlations in place of cross
/// products this gives standardized regression coefficients, as PLS path estimation uses.
///
/// # Errors
/// As [`Cholesky::new`] (collinear regressors are [`LinalgError::Singular`]).
///
/// # Examples
/// ```
/// use coglab_core::linalg::{ols_from_moments, Matrix};
/// // Two regressors with correlation 0.5, each correlating 0.6 with y:
/// // beta = [[1, .5], [.5, 1]]⁻¹ [.6, .6] = [0.4, 0.4].
/// let xtx = Matrix::from_rows(&[vec![1.0, 0.5], vec![0.5, 1.0]]).unwrap();
/// let b = ols_from_moments(&xtx, &[0.6, 0.6]).unwrap();
/// assert!((b[0] - 0.4).abs() < 1e-15 && (b[1] - 0.4).abs() < 1e-15);
/// ```
pub fn ols_from_moments(xtx: &Matrix, xty: &[f64]) -> Result<Vec<f64>, LinalgError> {
    if xty.len() != xtx.rows {
        return Err(LinalgError::Dimension {
            expected: format!("Xᵀy of length {}", xtx.rows),
            found: format!("length {}", xty.len()),
        });
    }
    Ok(Cholesky::new(xtx)?.solve(xty))
}

/// Pearson correlation matrix of equally long columns (sample moments; the `n − 1` cancels).
///
/// # Errors
/// [`LinalgError::ZeroVariance`] for a constant column, [`LinalgError::Dimension`] when the
/// columns differ in length or have fewer than 2 values.
///
/// # Examples
/// ```
/// use coglab_core::linalg::correlation_matrix;
/// let r = correlation_matrix(&[&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]]).unwrap();
/// assert!((r[(0, 1)] + 1.0).abs() < 1e-15);
/// ```
pub fn correlation_matrix(columns: &[&[f64]]) -> Result<Matrix, LinalgError> {
    let p = columns.len();
    let n = columns.first().map_or(0, |c| c.len());
    if n < 2 {
        return Err(LinalgError::Dimension {
            expected: "at least 2 rows".into(),
            found: format!("{n} rows"),
        });
    }
    let mut centered: Vec<Vec<f64>> = Vec::with_capacity(p);
    for (j, c) in columns.iter().enumerate() {
        if c.len() != n {
            return Err(LinalgError::Dimension {
                expected: format!("columns of length {n}"),
                found: format!("length {} in column {j}", c.len()),
            });
        }
        // Scaled by a power of two first (exact; correlations are scale-free), so columns of
        // ±1e308 or 1e-310 are not taken for constant when their squares overflow/underflow.
        let (c, _) = crate::stats::describe::scaled(c);
        let mean = c.iter().sum::<f64>() / n as f64;
        let d: Vec<f64> = c.iter().map(|v| v - mean).collect();
        let ss: f64 = d.iter().map(|v| v * v).sum();
        if ss <= 0.0 || !ss.is_finite() {
            return Err(LinalgError::ZeroVariance { column: j });
        }
        let s = ss.sqrt();
        centered.push(d.into_iter().map(|v| v / s).collect());
    }
    let mut r = Matrix::identity(p);
    for a in 0..p {
        for b in a + 1..p {
            let v: f64 = centered[a]
                .iter()
                .zip(&centered[b])
                .map(|(x, y)| x * y)
                .sum();
            let v = v.clamp(-1.0, 1.0);
            r[(a, b)] = v;
            r[(b, a)] = v;
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn inverse_of_3x3_by_hand() {
        // A = [[4,2,0],[2,3,1],[0,1,2]]; det = 4(6-1) - 2(4-0) = 12.
        // adj(A) = [[5,-4,2],[-4,8,-4],[2,-4,8]] so A⁻¹ = adj / 12.
        let a = Matrix::from_rows(&[
            vec![4.0, 2.0, 0.0],
            vec![2.0, 3.0, 1.0],
            vec![0.0, 1.0, 2.0],
        ])
        .unwrap();
        let inv = inverse_spd(&a).unwrap();
        let expected = [[5.0, -4.0, 2.0], [-4.0, 8.0, -4.0], [2.0, -4.0, 8.0]];
        for i in 0..3 {
            for j in 0..3 {
                assert_abs_diff_eq!(inv[(i, j)], expected[i][j] / 12.0, epsilon = 1e-14);
            }
        }
        // LU on the same system: A x = [6, 6, 3] has x = [1, 1, 1].
        let x = lu_solve(&a, &[6.0, 6.0, 3.0]).unwrap();
        for v in x {
            assert_abs_diff_eq!(v, 1.0, epsilon = 1e-14);
        }
    }

    #[test]
    fn collinear_is_singular_at_the_dependent_column() {
        // Column 2 = column 0 + column 1 -> correlation matrix singular at pivot 2.
        let a = [1.0, 2.0, 3.0, 4.0, 6.0];
        let b = [2.0, 1.0, 4.0, 3.0, 5.0];
        let c: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        let r = correlation_matrix(&[&a, &b, &c]).unwrap();
        match Cholesky::new(&r) {
            Err(LinalgError::Singular { pivot, .. }) => assert_eq!(pivot, 2),
            other => panic!("expected singular, got {other:?}"),
        }
        let lu = lu_solve(
            &Matrix::from_rows(&[vec![1.0, 2.0], vec![2.0, 4.0]]).unwrap(),
            &[1.0, 2.0],
        );
        assert!(matches!(lu, Err(LinalgError::Singular { pivot: 1, .. })));
    }

    #[test]
    fn correlation_by_hand_and_constant_column() {
        // x = 1..5, y = 2,1,4,3,7: r = 12 / sqrt(10 * 21.2) (see stats::correlation tests).
        let r =
            correlation_matrix(&[&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 1.0, 4.0, 3.0, 7.0]]).unwrap();
        assert_abs_diff_eq!(r[(0, 1)], 12.0 / 212f64.sqrt(), epsilon = 1e-15);
        assert_eq!(
            correlation_matrix(&[&[1.0, 2.0], &[3.0, 3.0]]),
            Err(LinalgError::ZeroVariance { column: 1 })
        );
    }

    #[test]
    fn select_and_mul_vec() {
        let a = Matrix::from_rows(&[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]]).unwrap();
        assert_eq!(a.mul_vec(&[1.0, 0.0, 1.0]).unwrap(), vec![4.0, 10.0]);
        let s = a.select(&[1], &[2, 0]);
        assert_eq!((s.rows(), s.cols(), s[(0, 0)], s[(0, 1)]), (1, 2, 6.0, 4.0));
        assert!(a.mul_vec(&[1.0]).is_err());
    }
}
