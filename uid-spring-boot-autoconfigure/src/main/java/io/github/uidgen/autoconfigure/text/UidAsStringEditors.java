package io.github.uidgen.autoconfigure.text;

import java.beans.PropertyEditorSupport;

import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.text.UidFormat;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.text.UidTextException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.server.ServerWebExchange;

/**
 * Reads a path variable or request parameter annotated {@link UidAsString} in its form and in nothing else. Spring
 * converts such a parameter with {@link UidAsStringFormatterFactory}, but when that conversion fails it tries its
 * plain number editor next, which takes {@code 251432234639192106}, {@code -5} or {@code 0x1F}: the decimal ID would
 * be read where only the opaque form is to be. Spring makes one binder for each such parameter; registering this
 * editor on it for {@code long} and {@code Long} puts the form in place of both, for that parameter only.
 *
 * <p>The advices need nothing but the application's {@link UidFormats} and say which web stack they serve, so one
 * found by component scanning (an application in a uid package) works as the auto-configured one does.
 */
final class UidAsStringEditors {

	private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	private final UidFormats formats;

	UidAsStringEditors(UidFormats formats) {
		this.formats = formats;
	}

	/**
	 * Registers the editor of the parameter a binder was made for, when that parameter is annotated.
	 * @param binder a binder Spring made for one named value (no target)
	 * @param handler the handler of the request, or {@code null}
	 */
	void register(WebDataBinder binder, @Nullable Object handler) {
		if (!(handler instanceof HandlerMethod method) || binder.getTarget() != null
				|| binder.getTargetType() != null) {
			return;
		}
		for (MethodParameter parameter : method.getMethodParameters()) {
			UidAsString annotation = parameter.getParameterAnnotation(UidAsString.class);
			if (annotation != null && binder.getObjectName().equals(name(parameter))) {
				UidFormat form = UidAsStringFormatterFactory.formOf(this.formats, annotation);
				binder.registerCustomEditor(Long.class, new Editor(form, false));
				binder.registerCustomEditor(long.class, new Editor(form, true));
				return;
			}
		}
	}

	/** The name Spring gives the binder of a path variable or request parameter, or {@code null} for others. */
	private static @Nullable String name(MethodParameter parameter) {
		PathVariable path = parameter.getParameterAnnotation(PathVariable.class);
		RequestParam request = parameter.getParameterAnnotation(RequestParam.class);
		String name = (path != null) ? path.name() : (request != null) ? request.name() : null;
		if (name == null || !name.isEmpty()) {
			return name;
		}
		MethodParameter named = parameter.clone();
		named.initParameterNameDiscovery(PARAMETER_NAMES);
		return named.getParameterName();
	}

	/** One ID in one form; blank is no ID, as Spring's own conversion has it. */
	private static final class Editor extends PropertyEditorSupport {

		private final UidFormat form;

		private final boolean primitive;

		Editor(UidFormat form, boolean primitive) {
			this.form = form;
			this.primitive = primitive;
		}

		@Override
		public void setAsText(String text) {
			if (!StringUtils.hasText(text)) {
				if (this.primitive) {
					throw new IllegalArgumentException("No " + this.form.name() + " ID for a parameter of type long");
				}
				setValue(null);
				return;
			}
			try {
				setValue(this.form.parse(text));
			}
			catch (UidTextException ex) {
				throw new IllegalArgumentException(ex.getMessage(), ex);
			}
		}

		@Override
		public String getAsText() {
			return (getValue() instanceof Long id) ? this.form.format(id) : "";
		}

	}

	/** Spring MVC's side: the handler is a request attribute. */
	@ControllerAdvice
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static final class ServletAdvice {

		private final UidAsStringEditors editors;

		ServletAdvice(UidFormats formats) {
			this.editors = new UidAsStringEditors(formats);
		}

		@InitBinder
		void registerUidTextEditor(WebDataBinder binder, NativeWebRequest request) {
			this.editors.register(binder, request.getAttribute(
					org.springframework.web.servlet.HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE,
					RequestAttributes.SCOPE_REQUEST));
		}

	}

	/** WebFlux's side: the handler is an attribute of the exchange. */
	@ControllerAdvice
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	static final class ReactiveAdvice {

		private final UidAsStringEditors editors;

		ReactiveAdvice(UidFormats formats) {
			this.editors = new UidAsStringEditors(formats);
		}

		@InitBinder
		void registerUidTextEditor(WebDataBinder binder, ServerWebExchange exchange) {
			this.editors.register(binder,
					exchange.getAttribute(org.springframework.web.reactive.HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE));
		}

	}

}
