/**
 * A Spring Boot 3.5 application with the uid starter, and the test that it stops with a clear message.
 */
package io.github.uidgen.boot3;
