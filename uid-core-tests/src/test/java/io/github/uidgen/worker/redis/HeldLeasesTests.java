package io.github.uidgen.worker.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Renewals may be outstanding side by side (one the client holds, the next sent beside it): what one that comes back
 * late reports must not overwrite what a later one recorded.
 */
class HeldLeasesTests {

	@Test
	void aRenewalThatComesBackLateDoesNotOverwriteALaterOne() {
		HeldLeases leases = new HeldLeases();
		leases.claimed(3, "token@host", 1_000);
		HeldLeases.Held startedFrom = leases.require(3);
		// Two renewals start from the same entry; the later one comes back first.
		leases.renewed(3, startedFrom, 2_000, 32_000, "run-b");
		HeldLeases.Held later = leases.require(3);
		leases.renewed(3, startedFrom, 1_500, 31_500, "run-a");
		assertThat(leases.require(3)).isSameAs(later);
		assertThat(leases.require(3).recordedMark()).isEqualTo(2_000L);
		assertThat(leases.require(3).expiresAt()).isEqualTo(32_000L);
	}

	@Test
	void anEntryEqualButNotTheSameIsNotReplaced() {
		HeldLeases leases = new HeldLeases();
		leases.claimed(4, "token@host", 1_000);
		HeldLeases.Held current = leases.require(4);
		HeldLeases.Held lookalike = new HeldLeases.Held(current.token(), current.recordedMark(), current.expiresAt(),
				current.server());
		leases.renewed(4, lookalike, 2_000, 32_000, "run-b");
		leases.lost(4, lookalike);
		assertThat(leases.require(4)).isSameAs(current);
	}

}
