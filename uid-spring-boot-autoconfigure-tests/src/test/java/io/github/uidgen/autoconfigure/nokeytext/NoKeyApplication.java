package io.github.uidgen.autoconfigure.nokeytext;

import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.autoconfigure.text.UidTextAutoConfiguration;
import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.jackson.UidAsString.Form;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application (in a package no other test application scans) whose classes ask for the opaque form in a JSON field and in a web parameter; started without a key
 * by {@link OpaqueFormWithoutKeyTests}.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
@ImportAutoConfiguration({ UidGeneratorAutoConfiguration.class, UidTextAutoConfiguration.class })
class NoKeyApplication {

	@Bean
	WorkerIdAssigner workerIdAssigner() {
		return new FixedWorkerIdAssigner(4);
	}

	record InvoiceView(@UidAsString long id, @UidAsString(value = Form.OPAQUE, prefix = "INV_") long number) {
	}

	static class InvoiceController {

		String invoice(@UidAsString(Form.OPAQUE) long invoiceNumber) {
			return Long.toString(invoiceNumber);
		}

	}

}
