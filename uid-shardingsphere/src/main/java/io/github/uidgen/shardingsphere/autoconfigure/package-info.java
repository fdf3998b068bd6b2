/**
 * Spring Boot auto-configuration that binds uid's ShardingSphere algorithms to the application's generator; used
 * only when Spring Boot is on the classpath.
 */
package io.github.uidgen.shardingsphere.autoconfigure;
