package io.github.uidgen.autoconfigure;

import java.time.Instant;

import io.github.uidgen.LayoutExhaustedException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LayoutExhaustedFailureAnalyzer}.
 */
class LayoutExhaustedFailureAnalyzerTests {

	@Test
	void namesTheLayoutPropertiesAndTheExpiry() {
		Instant expiry = Instant.parse("2024-11-20T00:00:00Z");
		FailureAnalysis analysis = new LayoutExhaustedFailureAnalyzer().analyze(new LayoutExhaustedException(expiry));
		assertThat(analysis.getDescription()).contains("ran out at " + expiry)
			.contains("Property: uid.time-bits, uid.epoch, uid.time-unit")
			.contains("Value: expires " + expiry);
		assertThat(analysis.getAction()).contains("more uid.time-bits").contains("later uid.epoch");
	}

}
