package io.github.uidgen.mybatis.autoconfigure;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.mybatis.UidIdInterceptor;
import org.apache.ibatis.plugin.Interceptor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@link UidIdInterceptor} as a bean: mybatis-spring-boot-starter and MyBatis-Plus add every
 * {@link Interceptor} bean to the {@code SqlSessionFactory} they build. A {@code UidIdInterceptor} bean of the
 * application's own wins.
 */
@AutoConfiguration(afterName = "io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration",
		beforeName = { "org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration",
				"com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration" })
@ConditionalOnClass(Interceptor.class)
@ConditionalOnBean(UidGenerator.class)
public final class UidMybatisAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UidIdInterceptor uidIdInterceptor(ObjectProvider<UidGenerator> uidGenerator) {
		return new UidIdInterceptor(uidGenerator::getObject);
	}

}
