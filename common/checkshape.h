/* checkshape.h: the checker's tests of the shapes a wrong product takes (checkshape.c), for
 * tl_check (check.c) alone: not part of the harness's interface (tilelab.h). Each is described
 * where it is defined. */
#ifndef TILELAB_CHECKSHAPE_H
#define TILELAB_CHECKSHAPE_H

/* An alternative product's element (i, j) in double; *absv gets its (|M||N|)ij. */
typedef double (*tl_chk_alt_fn)(const float *M, const float *N, int m, int k, int n, int i, int j, double *absv);

int tl_chk_is_poison(float f);
int tl_chk_elem_bad(float got, double ref, double absref, int k);
double tl_chk_alt_transpose_out(const float *M, const float *N, int m, int k, int n, int i, int j, double *a);
double tl_chk_alt_n_transposed(const float *M, const float *N, int m, int k, int n, int i, int j, double *a);
double tl_chk_alt_m_transposed(const float *M, const float *N, int m, int k, int n, int i, int j, double *a);
double tl_chk_alt_swapped(const float *M, const float *N, int m, int k, int n, int i, int j, double *a);
double tl_chk_alt_m_self(const float *M, const float *N, int m, int k, int n, int i, int j, double *a);
double tl_chk_alt_n_self(const float *M, const float *N, int m, int k, int n, int i, int j, double *a);
int tl_chk_matches_alt(const float *got, const float *M, const float *N, int m, int k, int n,
                       tl_chk_alt_fn f);
int tl_chk_sums_to(const float *got, const double *ref, const double *absref, const float *M, const float *N,
                   int m, int k, int n, int kc);
int tl_chk_missing_term(const float *got, const double *ref, const double *absref, const float *M,
                        const float *N, int m, int k, int n, int last);
int tl_chk_dropped_tail(const float *got, const double *ref, const double *absref, const float *M,
                        const float *N, int m, int k, int n, int T, int interior_only);
int tl_chk_written_rect(const float *got, int m, int n, int *r0, int *c0);
int tl_chk_written_diagonal(const float *got, int m, int n, int T);
int tl_chk_written_corner(const float *got, int m, int n, int T, int *bh, int *bw);
int tl_chk_phase_short(const float *got, const double *ref, const double *absref, const float *M,
                       const float *N, int m, int k, int n, int tile);
int tl_chk_phase_reset(const float *got, const double *ref, const double *absref, const float *M,
                       const float *N, int m, int k, int n, int tile);
int tl_chk_prefetch_phase(const float *got, const double *ref, const double *absref, const float *M,
                          const float *N, int m, int k, int n, int tile);
int tl_chk_outside_terms(const float *got, const double *ref, const double *absref, const float *M,
                         const float *N, int m, int k, int n, int tile);
int tl_chk_misplaced(const float *got, const double *ref, const double *absref, int m, int n, int k,
                     long wrong);
int tl_chk_accumulated(const float *got, const double *ref, const double *absref, int m, int n, int k);
int tl_chk_grid_swapped(const float *got, int m, int n, int T, long unwritten);
int tl_chk_row_stride(const float *got, const double *ref, const double *absref, int m, int n, int k, int s);
int tl_chk_wrong_dim(const float *got, const double *ref, const double *absref, const float *M,
                     const float *N, int m, int k, int n, int s, int of_n);

#endif
