/**
 * Spring Boot auto-configuration of uid's MyBatis-Plus {@code IdentifierGenerator}; used only when Spring Boot is on
 * the classpath.
 */
package io.github.uidgen.mybatisplus.autoconfigure;
