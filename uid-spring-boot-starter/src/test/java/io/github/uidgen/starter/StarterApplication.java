package io.github.uidgen.starter;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application that declares nothing: the generator comes from the starter alone.
 */
@SpringBootApplication(proxyBeanMethods = false)
class StarterApplication {

}
