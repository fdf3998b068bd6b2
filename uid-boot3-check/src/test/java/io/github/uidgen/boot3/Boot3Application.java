package io.github.uidgen.boot3;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application as Spring Boot 3.5's initializr makes it, with the uid starter beside it.
 */
@SpringBootApplication
class Boot3Application {

}
