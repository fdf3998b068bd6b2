/**
 * Spring Boot auto-configuration of uid's MyBatis interceptor; used only when Spring Boot is on the classpath.
 */
package io.github.uidgen.mybatis.autoconfigure;
