/**
 * A Spring Boot 4.0 application with the uid starter, Spring MVC and the actuator, and the test that uid works in it.
 */
package io.github.uidgen.boot40;
