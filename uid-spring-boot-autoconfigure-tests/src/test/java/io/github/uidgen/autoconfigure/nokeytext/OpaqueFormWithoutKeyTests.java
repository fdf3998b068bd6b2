package io.github.uidgen.autoconfigure.nokeytext;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code @UidAsString(Form.OPAQUE)} in an application without {@code uid.text.opaque.key} fails the start, naming the
 * field and the parameter that ask for the form and the property to set, instead of answering 500 at the first
 * request that meets one of them.
 */
class OpaqueFormWithoutKeyTests {

	@Test
	void theStartFailsNamingTheAnnotatedFieldAndParameterAndTheProperty() {
		Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(NoKeyApplication.class)
			.web(WebApplicationType.NONE)
			.run()
			.close());
		assertThat(failure).as("the start without a key").isNotNull();
		FailureAnalysis analysis = analyze(failure);
		assertThat(analysis).as("an analysis of %s", failure).isNotNull();
		assertThat(analysis.getDescription()).contains("NoKeyApplication.InvoiceView.number")
			.contains("parameter 'invoiceNumber' of NoKeyApplication.InvoiceController.invoice(long)")
			.contains("uid.text.opaque.key")
			.doesNotContain("InvoiceView.id");
		assertThat(analysis.getAction()).contains("uid.text.opaque.key");
	}

	@Test
	void withAKeyTheApplicationStarts() {
		new SpringApplicationBuilder(NoKeyApplication.class).web(WebApplicationType.NONE)
			.run("--uid.text.opaque.key=q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=")
			.close();
	}

	private static FailureAnalysis analyze(Throwable failure) {
		for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			}))) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

}
