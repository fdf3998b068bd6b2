package io.github.uidgen.autoconfigure;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Starts the {@link EarlyRedisClaim} once the environment is ready, when it asks for the redis worker-ID assigner,
 * hands it to the context as the bean {@value #BEAN_NAME} before the context refreshes, gives it back when the
 * application started without using it or failed to start, and hands it over to the context's connection factory once
 * the application is ready. One listener per {@code SpringApplication}.
 */
final class EarlyRedisClaimListener implements SmartApplicationListener {

	static final String BEAN_NAME = "uidEarlyRedisClaim";

	private EarlyRedisClaim claim;

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ApplicationEnvironmentPreparedEvent.class.isAssignableFrom(eventType)
				|| ApplicationPreparedEvent.class.isAssignableFrom(eventType)
				|| ApplicationStartedEvent.class.isAssignableFrom(eventType)
				|| ApplicationReadyEvent.class.isAssignableFrom(eventType)
				|| ApplicationFailedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
			if (this.claim == null && wantsRedisAssigner(prepared.getEnvironment()) && isRedisPresent()) {
				this.claim = EarlyRedisClaim.start(prepared.getEnvironment());
			}
		}
		else if (this.claim != null) {
			if (event instanceof ApplicationPreparedEvent prepared) {
				register(prepared.getApplicationContext());
			}
			else if (event instanceof ApplicationStartedEvent) {
				this.claim.closeIfUnused();
			}
			else if (event instanceof ApplicationReadyEvent) {
				this.claim.handOverOnceReady();
			}
			else if (event instanceof ApplicationFailedEvent) {
				this.claim.close();
			}
		}
	}

	/** As a singleton destroyed with the context, after the beans created during the refresh. */
	private void register(ConfigurableApplicationContext context) {
		var beanFactory = context.getBeanFactory();
		if (beanFactory.containsSingleton(BEAN_NAME)) {
			return;
		}
		beanFactory.registerSingleton(BEAN_NAME, this.claim);
		if (beanFactory instanceof org.springframework.beans.factory.support.DefaultSingletonBeanRegistry registry) {
			registry.registerDisposableBean(BEAN_NAME, this.claim);
		}
	}

	/**
	 * The redis assigner, uid enabled, and not the build-time run of Spring AOT (which must not talk to Redis).
	 */
	private static boolean wantsRedisAssigner(Environment environment) {
		return "redis".equalsIgnoreCase(environment.getProperty("uid.worker.assigner"))
				&& environment.getProperty("uid.enabled", Boolean.class, true)
				&& !Boolean.getBoolean("spring.aot.processing");
	}

	@Override
	public int getOrder() {
		// After Spring Boot's EnvironmentPostProcessorApplicationListener, which loads application.yml.
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * Lettuce, Spring Data Redis and Spring Boot's Redis properties on the class path: what uid's own socket to the
	 * Redis of {@code spring.data.redis.*} needs ({@link EarlyRedisConnection}), for the early claim and a segment
	 * store's first claim alike. Asked only of an application that chose a Redis store: looking classes up in an
	 * executable jar takes time at start, which the others should not pay.
	 */
	static boolean isRedisPresent() {
		return isPresent("io.lettuce.core.RedisClient")
				&& isPresent("org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory")
				&& isPresent("org.springframework.boot.data.redis.autoconfigure.DataRedisProperties");
	}

	private static boolean isPresent(String className) {
		return ClassUtils.isPresent(className, EarlyRedisClaimListener.class.getClassLoader());
	}

}
