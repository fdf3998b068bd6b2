package io.github.uidgen.autoconfigure;

import java.util.List;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.mock.env.MockEnvironment;

/**
 * Analyzes a start-up failure the way Spring Boot does: every {@link FailureAnalyzer} registered in
 * {@code META-INF/spring.factories} (Spring Boot's and uid's), in order, until one explains it. Proves the
 * registration as well as the analysis.
 */
final class StartupFailures {

	private StartupFailures() {
	}

	/**
	 * Returns the analysis Spring Boot would print for a failure.
	 * @param failure the start-up failure
	 * @param properties the properties the context ran with, {@code name=value}
	 * @return the analysis, or {@code null} when no analyzer explains the failure
	 */
	static FailureAnalysis analyze(Throwable failure, String... properties) {
		MockEnvironment environment = new MockEnvironment();
		TestPropertyValues.of(properties).applyTo(environment);
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, environment);
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(
				StartupFailures.class.getClassLoader())
			.load(FailureAnalyzer.class, arguments, SpringFactoriesLoader.FailureHandler.handleMessage((message,
					ex) -> {
			}));
		for (FailureAnalyzer analyzer : analyzers) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

}
