engine-internal-error = Sorry, something went wrong on our side. Please try again in a moment.
engine-busy = Sorry, I am busy with your earlier messages. Please send that again.
engine-order-in-flight = Your order is already being processed. Please check your phone for the M-Pesa prompt and do not confirm again. If you are charged without getting a confirmation here, type /help to reach support.
