package io.github.uidgen.boot3;

import io.github.uidgen.autoconfigure.UnsupportedSpringBootVersionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Starts a Spring Boot 3.5 application with the uid starter: it must stop before loading uid's auto-configurations,
 * saying which versions uid supports, rather than with a {@code ClassNotFoundException} on a Spring Boot 4 class.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnsupportedSpringBootVersionTests {

	@Test
	void theApplicationRunsOnSpringBoot35() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
	}

	@Test
	void theBomBroughtEveryUidModule() throws Exception {
		ClassLoader loader = getClass().getClassLoader();
		for (String type : new String[] { "io.github.uidgen.UidGenerator",
				"io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration", "io.github.uidgen.jackson.UidAsString",
				"io.github.uidgen.persistence.UidId" }) {
			Class<?> found = Class.forName(type, false, loader);
			assertThat(found.getProtectionDomain().getCodeSource().getLocation().toString()).as(type)
				.contains("uid-");
		}
	}

	@Test
	void startingStopsWithTheSupportedVersions(CapturedOutput output) {
		SpringApplication application = new SpringApplication(Boot3Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(UnsupportedSpringBootVersionException.class)
			.isThrownBy(() -> application.run("--uid.worker.id=1"))
			.withMessageContaining("uid needs Spring Boot 4.0.0 or later")
			.withMessageContaining("runs on Spring Boot " + SpringBootVersion.getVersion())
			.satisfies((ex) -> assertThat(ex.getVersion()).isEqualTo(SpringBootVersion.getVersion()));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("uid supports Spring Boot 4.0.0 and later 4.x versions")
			.contains("Upgrade the application to Spring Boot 4.0.0 or later, or remove the uid starter")
			.doesNotContain("ClassNotFoundException")
			.doesNotContain("NoClassDefFoundError");
	}

}
