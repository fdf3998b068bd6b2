package io.github.uidgen.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link UnsupportedSpringBootVersionException}. Written against the analyzer API Spring Boot 3 and 4
 * share, since it runs on the version uid does not support.
 */
class UnsupportedSpringBootVersionFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedSpringBootVersionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootVersionException cause) {
		String found = (cause.getVersion() != null) ? cause.getVersion() : "3.x or older";
		return new FailureAnalysis("uid supports Spring Boot " + SpringBootVersionCheck.MINIMUM_VERSION
				+ " and later 4.x versions (with Spring Framework 7, Jackson 3 and Java 17 or later), but this "
				+ "application runs on Spring Boot " + found + ".",
				"Upgrade the application to Spring Boot " + SpringBootVersionCheck.MINIMUM_VERSION
						+ " or later, or remove the uid starter (io.github.uidgen:uid-spring-boot-starter).",
				cause);
	}

}
