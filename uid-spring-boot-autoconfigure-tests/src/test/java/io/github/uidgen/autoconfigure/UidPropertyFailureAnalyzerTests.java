package io.github.uidgen.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidPropertyFailureAnalyzer}.
 */
class UidPropertyFailureAnalyzerTests {

	private final UidPropertyFailureAnalyzer analyzer = new UidPropertyFailureAnalyzer();

	@Test
	void namesThePropertyItsValueAndTheFix() {
		UidPropertyException cause = new UidPropertyException("uid.worker.id", -3, "A worker ID cannot be negative.",
				"Set uid.worker.id to 0 or more.");
		FailureAnalysis analysis = this.analyzer.analyze(new BeanCreationException("bean", "failed", cause));
		assertThat(analysis.getDescription()).startsWith("A worker ID cannot be negative.")
			.contains("Property: uid.worker.id")
			.contains("Value: -3");
		assertThat(analysis.getAction()).isEqualTo("Set uid.worker.id to 0 or more.");
	}

	@Test
	void saysWhenThePropertyIsNotSet() {
		UidPropertyException cause = new UidPropertyException("uid.worker.assigner", null, "No assigner.",
				"Set one.");
		assertThat(this.analyzer.analyze(cause).getDescription()).contains("Value: (not set)");
	}

}
