package io.aigw.runtime.exchange;

import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.Attempt;

/** Several listeners as one, told in order. */
final class Listeners implements ExchangeListener {
    private final ExchangeListener[] listeners;

    Listeners(ExchangeListener[] listeners) {
        this.listeners = listeners;
    }

    @Override
    public void exchangeStarted(Exchange exchange) {
        for (ExchangeListener listener : listeners) {
            listener.exchangeStarted(exchange);
        }
    }

    @Override
    public void attemptStarted(Exchange exchange, Route route) {
        for (ExchangeListener listener : listeners) {
            listener.attemptStarted(exchange, route);
        }
    }

    @Override
    public void attemptEnded(Exchange exchange, Attempt attempt) {
        for (ExchangeListener listener : listeners) {
            listener.attemptEnded(exchange, attempt);
        }
    }

    @Override
    public void passedOver(Exchange exchange, Attempt attempt) {
        for (ExchangeListener listener : listeners) {
            listener.passedOver(exchange, attempt);
        }
    }

    @Override
    public void exchangeEnded(ExchangeRecord record) {
        for (ExchangeListener listener : listeners) {
            listener.exchangeEnded(record);
        }
    }
}
