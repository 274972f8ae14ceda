# Price quotes for buying and selling.

quote-ask-direction = Do you want a price for buying or for selling?
quote-button-buy = Buy
quote-button-sell = Sell
quote-direction-unknown = Please choose Buy or Sell.
quote-ask-token = Which token?
quote-ask-network = On which network is the { $token }?
quote-token-not-on-network = { $token } is not available on { $network }.
quote-ask-amount-kes = How many Kenyan shillings do you want to spend?
quote-ask-amount-token = How many shillings do you want to receive for your { $token }? Type an amount such as 1000, or the tokens to sell such as 10 { $token }.
quote-amount-invalid = "{ $amount }" is not an amount I can use.
quote-title = Price for { $token } on { $network }:
quote-rate = Rate: 1 { $token } = { $rate }
quote-fee = Fee: { $feeKes } (about { $feeToken })
quote-pay-kes = You pay: { $amount }, fee included
quote-receive-token = You receive: about { $amount }
quote-pay-token = You send: { $amount }, fee included
quote-receive-kes = You receive: about { $amount } on M-Pesa
quote-limits = Limits: from { $min } to { $max }
quote-outside-limits = ⚠️ This amount is outside the limits, so it cannot be ordered.
quote-not-sellable = { $token } on this network cannot be sold here (only tokens our sell path can send to the ramp are offered).
quote-indicative = Prices move; the price is checked again when you confirm an order.
quote-button-sell-this = 💸 Sell this
quote-button-buy-this = 🛒 Buy this
quote-button-again = 💱 New quote
quote-shown-hint = Type another amount for a new price, or choose below.
