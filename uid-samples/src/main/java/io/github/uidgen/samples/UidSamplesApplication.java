package io.github.uidgen.samples;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Starts the sample ID service; everything about the generator comes from the uid starter and
 * {@code application.yml}.
 */
@SpringBootApplication
public class UidSamplesApplication {

	public static void main(String[] args) {
		SpringApplication.run(UidSamplesApplication.class, args);
	}

}
