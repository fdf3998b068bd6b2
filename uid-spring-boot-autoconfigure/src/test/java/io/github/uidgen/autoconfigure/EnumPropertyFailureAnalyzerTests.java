package io.github.uidgen.autoconfigure;

import io.github.uidgen.autoconfigure.UidProperties.Cached.PutPolicy;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link EnumPropertyFailureAnalyzer}.
 */
class EnumPropertyFailureAnalyzerTests {

	private final EnumPropertyFailureAnalyzer analyzer = new EnumPropertyFailureAnalyzer();

	@Test
	void listsTheValuesAsTheDocumentationSpellsThem() {
		FailureAnalysis analysis = this.analyzer.analyze(bindFailure("uid.cached.put-policy", "drop",
				Bindable.of(PutPolicy.class)));
		assertThat(analysis.getDescription()).startsWith("uid.cached.put-policy does not accept 'drop'")
			.contains("Property: uid.cached.put-policy")
			.contains("Value: drop")
			.contains("Origin:");
		assertThat(analysis.getAction()).isEqualTo("Set uid.cached.put-policy to one of: keep, log.");
	}

	@Test
	void leavesOtherPropertiesToSpringBoot() {
		assertThat(this.analyzer.analyze(bindFailure("other.policy", "drop", Bindable.of(PutPolicy.class))))
			.isNull();
	}

	@Test
	void leavesValuesThatAreNotEnumsToSpringBoot() {
		assertThat(this.analyzer.analyze(bindFailure("uid.time-bits", "many", Bindable.of(Integer.class)))).isNull();
	}

	private static BindException bindFailure(String name, String value, Bindable<?> target) {
		MapConfigurationPropertySource source = new MapConfigurationPropertySource();
		source.put(name, value);
		return catchThrowableOfType(BindException.class, () -> new Binder(source).bind(name, target));
	}

}
