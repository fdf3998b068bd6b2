package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.Instant;

import io.github.uidgen.ClockBehindHighWaterMarkException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClockBehindHighWaterMarkFailureAnalyzer}.
 */
class ClockBehindHighWaterMarkFailureAnalyzerTests {

	@Test
	void namesTheStartupWaitTheGapAndTheMark() {
		Instant mark = Instant.parse("2026-01-01T00:01:00Z");
		ClockBehindHighWaterMarkException cause = new ClockBehindHighWaterMarkException(5, mark,
				Instant.parse("2026-01-01T00:00:00Z"), Duration.ofSeconds(10));
		FailureAnalysis analysis = new ClockBehindHighWaterMarkFailureAnalyzer().analyze(cause);
		assertThat(analysis.getDescription()).contains("Worker 5")
			.contains("Property: uid.mark.max-startup-wait")
			.contains("Value: 10000ms");
		assertThat(analysis.getAction()).contains("60000 ms behind")
			.contains(mark.toString())
			.contains("raise uid.mark.max-startup-wait above 60000ms");
	}

}
