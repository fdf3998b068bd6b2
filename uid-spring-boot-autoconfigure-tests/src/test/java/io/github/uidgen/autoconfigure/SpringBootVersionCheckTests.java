package io.github.uidgen.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link SpringBootVersionCheck} and its failure analyzer; a real Spring Boot 3.5 application is started
 * in the {@code uid-boot3-check} module.
 */
class SpringBootVersionCheckTests {

	@Test
	void springBoot4IsSupported() {
		assertThat(SpringBootVersionCheck.isSupported("4.0.0", true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported("4.0.6", true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported("4.1.0", true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported("4.1.1", true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported("4.1.0-SNAPSHOT", true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported("4.2.0-M1", true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported("5.0.0", true)).isTrue();
	}

	@Test
	void springBoot3AndOlderAreNot() {
		assertThat(SpringBootVersionCheck.isSupported("3.5.7", false)).isFalse();
		assertThat(SpringBootVersionCheck.isSupported("4.0.0-RC1", true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported("3.99.0", false)).isFalse();
		assertThat(SpringBootVersionCheck.isSupported("2.7.18", false)).isFalse();
	}

	@Test
	void withoutAVersionTheClassesDecide() {
		assertThat(SpringBootVersionCheck.isSupported(null, true)).isTrue();
		assertThat(SpringBootVersionCheck.isSupported(null, false)).isFalse();
	}

	@Test
	void thisSpringBootPassesTheCheck() {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.1.");
		ApplicationPreparedEvent event = new ApplicationPreparedEvent(new SpringApplication(), new String[0],
				new GenericApplicationContext());
		assertThatNoException().isThrownBy(() -> new SpringBootVersionCheck().onApplicationEvent(event));
	}

	@Test
	void theAnalysisNamesTheSupportedVersionsAndTheFix() {
		FailureAnalysis analysis = new UnsupportedSpringBootVersionFailureAnalyzer()
			.analyze(new UnsupportedSpringBootVersionException("3.5.7"));
		assertThat(analysis.getDescription()).contains("uid supports Spring Boot 4.0.0 and later 4.x versions",
				"runs on Spring Boot 3.5.7");
		assertThat(analysis.getAction()).contains("Upgrade the application to Spring Boot 4.0.0 or later",
				"io.github.uidgen:uid-spring-boot-starter");
	}

}
