# Past orders of a wallet.

history-ask-wallet = Which wallet's history do you want to see?
history-button-other-wallet = 👛 Another wallet
history-ask-network = On which network is the wallet?
history-ask-address = Send the { $network } wallet address.
history-title = { $side ->
    [offramp] Sales
   *[onramp] Purchases
} of { $address } { $network }:
history-record-buy = { $date }: bought { $crypto } for { $kes } (order { $orderId }, M-Pesa { $receipt })
history-record-sell = { $date }: sold, received { $kes } (order { $orderId }, M-Pesa { $receipt })
history-empty = No transactions found.
history-page = Page { $page } of { $pages }
history-button-previous = ◀️ Previous
history-button-next = Next ▶️
history-button-sells = Show sales
history-button-buys = Show purchases
