/**
 * The starter's acceptance test: a Spring Boot application that adds nothing but the starter and two properties.
 */
package io.github.uidgen.starter;
