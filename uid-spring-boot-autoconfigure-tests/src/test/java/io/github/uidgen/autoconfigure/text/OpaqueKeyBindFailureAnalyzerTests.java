package io.github.uidgen.autoconfigure.text;

import java.util.List;
import java.util.Map;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A {@code uid.text.opaque.*} setting the binder refuses is explained without its value, by an analyzer that runs
 * before Spring Boot's, which would print it.
 */
class OpaqueKeyBindFailureAnalyzerTests {

	private static final String KEY = "kItrTnYmQ3vXpL8sZ1wE5rT7yU9iO0pAsDfGhJkLzXc=";

	private final OpaqueKeyBindFailureAnalyzer analyzer = new OpaqueKeyBindFailureAnalyzer();

	@Test
	void aScalarWherePreviousKeysTakeAMapIsExplainedWithoutTheValue() {
		FailureAnalysis analysis = this.analyzer.analyze(bindFailure("uid.text.opaque.previous-keys", KEY));
		assertThat(analysis.getDescription()).contains("Property: uid.text.opaque.previous-keys")
			.contains("map of key versions to keys")
			.contains("Value: (not shown: keys are secret)")
			.doesNotContain(KEY.substring(0, 6));
		assertThat(analysis.getAction()).contains("uid.text.opaque.previous-keys.b=<key>");
	}

	@Test
	void aScalarWhereTheGroupIsExpectedIsExplainedWithoutTheValue() {
		FailureAnalysis analysis = this.analyzer.analyze(bindFailure("uid.text.opaque", KEY));
		assertThat(analysis.getDescription()).contains("Property: uid.text.opaque\n")
			.contains("group of the opaque form's settings")
			.doesNotContain(KEY.substring(0, 6));
	}

	@Test
	void otherBindFailuresAreLeftToSpringBoot() {
		assertThat(this.analyzer.analyze(bindFailure("uid.text.fixed-width", "maybe"))).isNull();
	}

	@Test
	void itRunsBeforeSpringBootsBindFailureAnalyzer() {
		// As Spring Boot's FailureAnalyzers loads them: every analyzer of the classpath, in their order.
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.none(),
					SpringFactoriesLoader.FailureHandler.logging(LogFactory.getLog(getClass())));
		AnnotationAwareOrderComparator.sort(analyzers);
		assertThat(analyzers).first().isInstanceOf(OpaqueKeyBindFailureAnalyzer.class);
	}

	private static BindException bindFailure(String property, String value) {
		Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(property, value)));
		return catchThrowableOfType(BindException.class,
				() -> binder.bind(UidTextProperties.PREFIX, Bindable.of(UidTextProperties.class)));
	}

}
