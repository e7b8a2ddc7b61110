//! Searches over amounts on a grid: the boundary where a monotone check
//! turns, found by galloping from a guess and bisecting (the feasible
//! amounts' least and greatest, the ranking envelope's crossings).

/// The least `x` in `[lo, hi]` with `works(x)`, for `works` false then true
/// and `works(hi)` known true; `guess` is tried first, then a gallop away
/// from it brackets the answer and a bisection finds it: `O(log d)` checks
/// for a guess `d` units off.
pub(super) fn least(lo: i128, hi: i128, guess: i128, works: &dyn Fn(i128) -> bool) -> Option<i128> {
    if works(lo) {
        return Some(lo);
    }
    // `low` never works, `high` always does.
    let (mut low, mut high) = (lo, hi);
    let guess = guess.clamp(lo, hi);
    if guess > low && guess < high {
        let mut stride: i128 = 1;
        if works(guess) {
            high = guess;
            loop {
                let probe = high.saturating_sub(stride);
                if probe <= low {
                    break;
                }
                if works(probe) {
                    high = probe;
                    stride = stride.saturating_mul(2);
                } else {
                    low = probe;
                    break;
                }
            }
        } else {
            low = guess;
            loop {
                let probe = low.saturating_add(stride);
                if probe >= high {
                    break;
                }
                if works(probe) {
                    high = probe;
                    break;
                }
                low = probe;
                stride = stride.saturating_mul(2);
            }
        }
    }
    narrow(low, high, works).map(|(_, high)| high)
}

/// Bisects `low..=high`, where `high_side` is false at `low` and true at
/// `high` (false then true in between), down to the two adjacent amounts
/// where it turns: `O(log(high − low))` calls.
pub(super) fn narrow(
    mut low: i128,
    mut high: i128,
    high_side: &dyn Fn(i128) -> bool,
) -> Option<(i128, i128)> {
    while high.checked_sub(low)? > 1 {
        let mid = low.checked_add(high.checked_sub(low)? / 2)?;
        if high_side(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some((low, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_finds_the_boundary_from_any_guess() {
        for answer in [0i128, 1, 7, 99, 100] {
            for guess in [-5i128, 0, 3, 50, 99, 100, 1000] {
                let works = |x: i128| x >= answer;
                assert_eq!(
                    least(0, 100, guess, &works),
                    Some(answer),
                    "{answer} {guess}"
                );
            }
        }
    }
}
