engine-internal-error = Sorry, something went wrong on our side. Please try again in a moment.
engine-busy = Sorry, I am busy with your earlier messages. Please send that again.
engine-order-in-flight = Your order is already being processed. Please check your phone for the M-Pesa prompt and do not confirm again. If you are charged without getting a confirmation here, type /help to reach support.
engine-order-unconfirmed = We could not confirm your order of KES { $amount }: the payment service has no record of it, so the M-Pesa prompt was most likely never sent. Our support team has the details and will check; if money left your account, they will sort it out with you here. You can start a new order with /buy.
engine-order-not-created = Your order of KES { $amount } was not created: the payment service has no record of it, so no M-Pesa prompt was sent and no money was taken. You can start a new order with /buy.
engine-store-down = Sorry, I can't take messages for a moment (a short technical outage). Nothing was done with your last message; please send it again in a minute.
