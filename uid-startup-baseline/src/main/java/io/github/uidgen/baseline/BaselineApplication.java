package io.github.uidgen.baseline;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Starts the sample ID service's twin without uid, so that the start-up benchmark can tell what uid adds to a start.
 */
@SpringBootApplication
public class BaselineApplication {

	public static void main(String[] args) {
		SpringApplication.run(BaselineApplication.class, args);
	}

}
